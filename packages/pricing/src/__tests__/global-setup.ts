import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'tsup';
import type { TestProject } from 'vitest/node';
import { buildOptions } from '../../tsup.config';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A temporary `node_modules/@firm/pricing` holding this package's package.json and a fresh build. */
    pricingPackageDir: string;
  }
}

/**
 * Build the package exactly as `pnpm build` does, but into a temporary folder laid out as an
 * installed package, so the tests load the real artifacts by name without needing (or touching) a
 * prior build in dist/.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  const root = mkdtempSync(join(tmpdir(), 'firm-pricing-dist-'));
  const packageDir = join(root, 'node_modules', '@firm', 'pricing');
  mkdirSync(packageDir, { recursive: true });
  copyFileSync('package.json', join(packageDir, 'package.json'));
  for (const options of buildOptions) {
    await build({ ...options, outDir: join(packageDir, 'dist'), silent: true, config: false });
  }
  project.provide('pricingPackageDir', packageDir);
  return () => rmSync(root, { recursive: true, force: true });
}
