import { defineConfig, type Options } from 'tsup';

/**
 * One build: the library (`index`, ESM + CJS + declarations) and the `firm-pricing` command-line
 * tool (`cli`, keeps its shebang). Exported so the dist-loading test builds exactly this into a
 * temporary folder.
 */
export const buildOptions = {
  entry: { index: 'src/index.ts', cli: 'src/cli/main.ts' },
  format: ['esm', 'cjs'],
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  clean: true,
  target: 'node20',
  platform: 'node',
  treeshake: true,
} satisfies Options;

export default defineConfig(buildOptions);
