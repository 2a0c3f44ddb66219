import { fileURLToPath } from 'node:url';

import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

import { HUB_ONLY_UI_PARTS, loginRouteGuard } from './build/login-route-guard.ts';
import { precompress } from './build/precompress.ts';
import { reactRouterProduction } from './build/react-router-production.ts';
import { routePreloadsPlugin } from './build/route-preloads.ts';

const apiTarget = 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    react(),
    reactRouterProduction(),
    loginRouteGuard(),
    routePreloadsPlugin(),
    precompress(),
  ],
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
    rolldownOptions: {
      output: {
        // A page's first load in a few files rather than a dozen small shared chunks: over HTTP/1.1 every file
        // beyond the browser's six connections waits for a round trip. The groups follow who needs what, so the
        // login page still loads no hub, calculator, pricing or PDF code (build/login-route-guard.ts checks it).
        codeSplitting: {
          // A group takes the modules it names, not what they import (those follow the usual splitting).
          includeDependenciesRecursively: false,
          groups: [
            // What every page needs: React in a chunk of its own (src/main.tsx runs it in a task before the app's),
            // then the router and styled-components (loaded by src/start.tsx).
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/,
              priority: 6,
            },
            {
              name: 'framework',
              test: /node_modules[\\/](react-router|styled-components|stylis)[\\/]|^\0rolldown[\\/]runtime/,
              priority: 5,
            },
            // The form parts the login page shares with the hub (with the checks of what is typed).
            {
              name: 'forms',
              test: /packages[\\/]ui[\\/]src[\\/](button|field|spinner|text-field|visually-hidden)[\\/]|src[\\/]lib[\\/](errors|text|email-address|phone-number|logo|return-path|tab-data|main-landmark|document-title|links)\.ts$/,
              priority: 4,
            },
            // The hub's data and state libraries and hooks (every page but the login page).
            {
              name: 'hub',
              test: /node_modules[\\/](swr|dequal|use-sync-external-store|zustand)[\\/]|src[\\/](hooks[\\/](use-client|use-refused-amounts|use-session-check)|lib[\\/](activity|repeated-navigation|tab-storage)|features[\\/]content[\\/]utils[\\/]search-text)\.ts$/,
              priority: 3,
            },
            // The pricing library (calculators, framework and due diligence).
            { name: 'pricing', test: /packages[\\/]pricing[\\/]/, priority: 2 },
            // The calculators' shared parts (the three calculator pages).
            {
              name: 'calculators',
              test: /src[\\/]features[\\/]calculators[\\/](?!routes[\\/])/,
              priority: 2,
            },
            // The parts of the UI kit and the portal's components that only the hub's pages use, when two or more
            // of them share it. The login page's own (button, text field, field, visually hidden) stay apart, so
            // that it loads no more than it needs (the bundle budget holds it to 125 KB).
            {
              name: 'ui',
              test: new RegExp(
                `packages[\\\\/]ui[\\\\/]src[\\\\/](${[...HUB_ONLY_UI_PARTS, 'utils'].join('|')})[\\\\/]|src[\\\\/]components[\\\\/]`,
              ),
              minShareCount: 2,
              priority: 1,
            },
          ],
        },
      },
    },
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
