import { defineConfig } from 'tsup';

export default defineConfig({
  entry: ['src/server.ts', 'src/admin.ts', 'src/app.ts'],
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  sourcemap: true,
  clean: true,
  dts: false,
  splitting: true,
});
