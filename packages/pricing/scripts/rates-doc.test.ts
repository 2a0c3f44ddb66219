import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RATE_TABLE_VERSION } from '../src/api/rate-table-version';
import { INSURANCES } from '../src/options';
import { RATES_DOC_PATH } from './rates-doc-path';
import { renderRatesDoc } from './rates-doc';

describe('docs/rates.md', () => {
  it('is in sync with the tables (run pnpm --filter @firm/pricing rates)', () => {
    const committed = readFileSync(fileURLToPath(RATES_DOC_PATH), 'utf8');
    expect(
      committed === renderRatesDoc(),
      'docs/rates.md differs from the rate tables: run pnpm --filter @firm/pricing rates',
    ).toBe(true);
  });

  it('shows the version, every band edge and all 15 insurances', () => {
    const doc = renderRatesDoc();
    expect(doc).toContain(RATE_TABLE_VERSION);
    for (const band of [
      '£500,000 to under £5,000,000 | 1.13',
      '£25,000,000 to £50,000,000 | 0.83',
      '51–250 | 0',
    ]) {
      expect(doc).toContain(band);
    }
    for (const insurance of INSURANCES) expect(doc).toContain(insurance);
  });
});
