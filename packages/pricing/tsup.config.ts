import { defineConfig, type Options } from 'tsup';

import { computeRateTableVersion } from './src/core/rate-table-version';
import { RATE_TABLES } from './src/tables/all-tables';
import { RATES_PUBLISHED } from './src/tables/published';

/**
 * The rate-table version, hashed here once rather than by every program that loads the library (a
 * browser paid for it on every calculator page). src/api/rate-table-version.ts falls back to hashing
 * at load time when run from source; the dist test holds the built value equal to that.
 */
const define = {
  __RATE_TABLE_VERSION__: JSON.stringify(computeRateTableVersion(RATE_TABLES, RATES_PUBLISHED)),
};

/**
 * Two builds: the library (`index`: ESM + CJS + declarations) and the `firm-pricing` command-line
 * tool (`cli`: ESM only, keeps its shebang). Each cleans dist except the other's files, so they
 * can run side by side. Exported so the dist-loading test builds exactly this into a temporary folder.
 */
export const buildOptions: Options[] = [
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    dts: true,
    sourcemap: true,
    clean: ['!cli.*'], // tsup removes everything in dist but these
    target: 'node20',
    platform: 'neutral',
    treeshake: true,
    define,
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: ['!index.*'],
    target: 'node20',
    platform: 'node',
    define,
  },
];

export default defineConfig(buildOptions);
