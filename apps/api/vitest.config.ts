import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Test against the pricing library's source, so the suite does not depend on its dist/ being built.
    alias: {
      '@firm/pricing': fileURLToPath(
        new URL('../../packages/pricing/src/index.ts', import.meta.url),
      ),
    },
  },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Two cores on the build box: a couple of workers is faster than many.
    maxWorkers: 2,
    // The app's modules (jsdom, Fastify, Kysely) are slow to import; test files share them per worker.
    isolate: false,
  },
});
