import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { quoteBuildingWarranty, RATE_TABLE_VERSION } from '../index';

// The global setup built the package into <tmp>/node_modules/@firm/pricing.
const packageDir = inject('pricingPackageDir');
const projectDir = dirname(dirname(dirname(packageDir)));
const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
  exports: Record<string, Record<string, Record<string, string>>>;
  bin: Record<string, string>;
  sideEffects: boolean;
  files: string[];
  type: string;
};

const INPUT = {
  buildType: 'Conversion',
  stage: 'Part Complete',
  units: 7,
  sumInsured: 4_999_999,
  gdv: 6_000_000,
};
const SCRIPT = (load: string) => `${load}
const quote = pricing.quoteBuildingWarranty(${JSON.stringify(INPUT)});
let issues = null;
try { pricing.quoteContractorsAllRisks({ propertyType: 'x', contractWorksValue: 1 }); }
catch (error) { issues = error instanceof pricing.PricingInputError ? error.issues.map((i) => i.field) : String(error); }
console.log(JSON.stringify({ quote, issues, version: pricing.RATE_TABLE_VERSION, pounds: pricing.formatPounds(quote.estimate) }));`;

/** Run a script with plain Node from a folder whose node_modules holds the built package. */
const node = (args: string[]) =>
  JSON.parse(execFileSync(process.execPath, args, { cwd: projectDir, encoding: 'utf8' })) as {
    quote: unknown;
    issues: unknown;
    version: string;
    pounds: string;
  };

describe('the built package', () => {
  const expected = {
    quote: quoteBuildingWarranty(INPUT as never),
    issues: ['propertyType', 'contractWorksValue'],
    version: RATE_TABLE_VERSION,
    pounds: '£84,499', // 4,999,999 × 1.69% = 84,499.98…
  };

  it('loads with import in plain Node (ESM)', () => {
    expect(
      node(['--input-type=module', '-e', SCRIPT("import * as pricing from '@firm/pricing';")]),
    ).toEqual(expected);
  });

  it('loads with require in plain Node (CommonJS)', () => {
    expect(node(['-e', SCRIPT("const pricing = require('@firm/pricing');")])).toEqual(expected);
  });

  it('declares ESM, CJS and types in its exports map, and every file exists', () => {
    const root = manifest.exports['.'] as Record<string, Record<string, string>>;
    const files = [
      root.import?.types,
      root.import?.default,
      root.require?.types,
      root.require?.default,
      ...Object.values(manifest.bin),
    ];
    for (const file of files) {
      expect(file).toBeTypeOf('string');
      expect(existsSync(join(packageDir, file as string)), file).toBe(true);
    }
    expect(manifest).toMatchObject({ type: 'module', sideEffects: false, files: ['dist'] });
  });

  it('declares the whole public API in its type declarations', () => {
    const declarations = readFileSync(join(packageDir, 'dist/index.d.ts'), 'utf8');
    for (const name of [
      'quoteBuildingWarranty',
      'quoteBtrWarranty',
      'quoteContractorsAllRisks',
      'recommendInsuranceFramework',
      'insuranceGuide',
      'PricingInputError',
      'RATE_TABLE_VERSION',
      'formatPounds',
      'BUILDING_WARRANTY_LIMITS',
      'GUIDE_TAGS',
      'SliderLimit',
    ]) {
      expect(declarations).toContain(name);
    }
  });

  it('ships the command-line tool with its shebang', () => {
    const cli = readFileSync(join(packageDir, manifest.bin['firm-pricing'] as string), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node')).toBe(true);
  });
});
