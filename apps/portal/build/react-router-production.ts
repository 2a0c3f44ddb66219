import { createRequire } from 'node:module';
import path from 'node:path';

import type { Plugin } from 'vite';

/**
 * Builds with React Router's production modules. Its package exports only its development build
 * (`dist/development`, with `ENABLE_DEV_WARNINGS = true`: console warnings, a "Hey developer" notice and their
 * texts) to every bundler, whatever the mode (remix-run/react-router#12532, #14102, #14753, still open for 7.18);
 * the package also ships `dist/production`, the same code with those warnings off. The development server and the
 * tests keep the development build and its warnings. About 0.5 KB gzip off every page's first load.
 */
export function reactRouterProduction(): Plugin {
  const fromPortal = createRequire(import.meta.url);
  const routerDom = fromPortal.resolve('react-router-dom/package.json');
  const routerDir = path.dirname(createRequire(routerDom).resolve('react-router/package.json'));
  const production: Record<string, string> = {
    'react-router': path.join(routerDir, 'dist/production/index.mjs'),
    'react-router/dom': path.join(routerDir, 'dist/production/dom-export.mjs'),
  };
  return {
    name: 'portal:react-router-production',
    apply: 'build',
    enforce: 'pre',
    resolveId(source) {
      return production[source] ?? null;
    },
  };
}
