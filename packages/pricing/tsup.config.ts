import { defineConfig, type Options } from 'tsup';

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
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    sourcemap: true,
    clean: ['!index.*'],
    target: 'node20',
    platform: 'node',
  },
];

export default defineConfig(buildOptions);
