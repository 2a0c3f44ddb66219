import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

import { loginRouteGuard } from './build/login-route-guard.ts';
import { precompress } from './build/precompress.ts';
import { routePreloadsPlugin } from './build/route-preloads.ts';

const apiTarget = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), loginRouteGuard(), routePreloadsPlugin(), precompress()],
  resolve: {
    alias: {
      '@': fileURLToPath(new URL('./src', import.meta.url)),
      // Bundle the UI kit from its source modules: each page then takes only the components it uses. The package's
      // single-file build would put every component into the entry chunk that the login page loads.
      '@firm/ui': fileURLToPath(new URL('../../packages/ui/src/index.ts', import.meta.url)),
    },
  },
  server: {
    host: '127.0.0.1',
    port: 5173,
    strictPort: true,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/media': { target: apiTarget, changeOrigin: false },
    },
  },
  preview: { host: '127.0.0.1', port: 4173 },
  build: {
    // The manifest lets us check which chunks each route pulls in (the login route must stay small).
    manifest: true,
    // Maps for debugging a build, without the comment that would make browsers fetch them.
    sourcemap: 'hidden',
  },
  test: {
    environment: 'jsdom',
    globals: false,
    setupFiles: ['./src/testing/setup-tests.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 20_000,
  },
});
