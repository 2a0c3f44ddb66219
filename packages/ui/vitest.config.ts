import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // axe-core walks the whole tree; keep the per-test budget generous on a shared 2-core machine.
    testTimeout: 20_000,
  },
});
