/**
 * What several test files share: one valid input of each function, and the built `firm-pricing` command
 * (the global setup builds the package, bin included, into a temporary folder).
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';

export const BUILDING_WARRANTY = {
  buildType: 'New Build',
  stage: 'Not Started',
  units: 3,
  sumInsured: 1_000_000,
  gdv: 2_000_000,
} as const;
export const LOSS_OF_RENT = {
  anticipatedRentalIncome: 1_500_000,
  termMonths: 24,
  programmeMonths: 12,
} as const;
export const BTR = {
  stage: 'Part Complete',
  units: 120,
  sumInsured: 12_000_000,
  gdv: 30_000_000,
  lossOfRent: LOSS_OF_RENT,
} as const;
export const CAR = {
  propertyType: 'Commercial Conversion',
  contractWorksValue: 1_000_000,
} as const;
export const FRAMEWORK = {
  propertyType: 'Residential',
  contractValue: 6_000_000,
  hasBasement: false,
  developmentType: 'New Build (including exisiting structures on site)',
  gdv: 9_000_000,
  contractor: 'Main contractor (JCT Design and Build)',
  schemeLocation: 'Urban',
  reinstatement: 2_000_000,
  hasFlatRoof: false,
} as const;

/** The folder the global setup built the package into. */
export const packageDir = inject('pricingPackageDir');

/** The built `firm-pricing` script, as the package's `bin` names it. */
export const bin = join(
  packageDir,
  (
    JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8')) as {
      bin: Record<string, string>;
    }
  ).bin['firm-pricing'] as string,
);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `firm-pricing` with plain Node: its exit code and output. */
export async function cli(...args: string[]): Promise<CliRun> {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [bin, ...args], {
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as CliRun;
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}
