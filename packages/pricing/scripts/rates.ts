/**
 * Writes docs/rates.md from the rate tables: `pnpm --filter @firm/pricing rates`.
 * Run it after changing any table, and commit the result with the change.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { RATES_DOC_PATH } from './rates-doc-path';
import { renderRatesDoc } from './rates-doc';

const path = fileURLToPath(RATES_DOC_PATH);
writeFileSync(path, renderRatesDoc());
console.log(`wrote ${path}`);
