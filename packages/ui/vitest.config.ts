import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // Test the build of styled-components that browsers get (its Node build skips global styles
    // outside server rendering).
    mainFields: ['browser', 'module', 'main'],
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    server: { deps: { inline: ['styled-components'] } },
    // axe-core walks the whole tree; keep the per-test budget generous on a shared 2-core machine.
    testTimeout: 20_000,
  },
});
