import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'scripts/**/*.test.ts'],
    // Builds the package once into a temporary folder for the dist-loading and CLI tests.
    globalSetup: ['./src/__tests__/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
