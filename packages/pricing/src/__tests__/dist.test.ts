import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

  it('types what the functions accept for a strict consumer (exactOptionalPropertyTypes), ESM and CJS', () => {
    // quoteBtrWarranty treats lossOfRent: undefined as no cover; the declarations must allow it.
    const call = `({ stage: 'Completed', units: 50, sumInsured: 8_000_000, gdv: 20_000_000, lossOfRent: cover })`;
    writeFileSync(
      join(projectDir, 'strict-consumer.mts'),
      `import { quoteBtrWarranty, type LossOfRentInput } from '@firm/pricing';
declare const cover: LossOfRentInput | undefined;
export const total: number = quoteBtrWarranty${call}.total;\n`,
    );
    writeFileSync(
      join(projectDir, 'strict-consumer.cts'),
      `import pricing = require('@firm/pricing');
declare const cover: pricing.LossOfRentInput | undefined;
export const total: number = pricing.quoteBtrWarranty${call}.total;\n`,
    );
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    let errors = '';
    try {
      execFileSync(
        process.execPath,
        [
          tsc,
          '--noEmit',
          '--strict',
          '--exactOptionalPropertyTypes',
          '--module',
          'nodenext',
          '--target',
          'es2022',
          'strict-consumer.mts',
          'strict-consumer.cts',
        ],
        { cwd: projectDir, encoding: 'utf8' },
      );
    } catch (error) {
      errors = String((error as { stdout?: unknown }).stdout);
    }
    expect(errors).toBe('');
  });

  it('ships the command-line tool with its shebang', () => {
    const cli = readFileSync(join(packageDir, manifest.bin['firm-pricing'] as string), 'utf8');
    expect(cli.startsWith('#!/usr/bin/env node')).toBe(true);
  });
});
