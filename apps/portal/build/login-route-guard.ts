import { gzipSync } from 'node:zlib';

import type { Plugin } from 'vite';

import { appClosure, closure } from './route-preloads.ts';

/**
 * Modules the login page must never load: calculators, pricing, the framework and guide pages, PDF code, the hub's
 * content answers (their shapes, the served-answer fallback) and the tab storage of its drafts, the UI kit's parts
 * only the hub uses (its text field is the login's, its text area is not), React Router's development build (the
 * build takes its production one: build/react-router-production.ts), and the 404 and error pages, which the app
 * fetches once the page is drawn (src/app/routes/error-pages.tsx).
 */
/** The UI kit's parts only the hub uses (the `ui` chunk group in vite.config.ts takes them too). */
export const HUB_ONLY_UI_PARTS = [
  'accordion',
  'card',
  'contained-marks',
  'money-slider-field',
  'select',
  'slider',
  'text-area',
  'toggle',
  'tooltip',
] as const;

const FORBIDDEN = [
  /packages\/pricing\//,
  /@firm\/pricing/,
  /src\/features\/(calculators|framework|guide)\//,
  /pdf/i,
  /src\/lib\/(content-shapes|boot-fallback|tab-storage)\.ts$/,
  /src\/app\/routes\/(route-error|not-found)\.tsx$/,
  new RegExp(`packages/ui/src/(${HUB_ONLY_UI_PARTS.join('|')})/`),
  /react-router\/dist\/development\//,
];

interface OutputChunk {
  type: 'chunk';
  fileName: string;
  code: string;
  isEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
  moduleIds: string[];
}

/**
 * Fails the build when the login route's chunks (the entry, the app, the login chunk and their static imports) contain a
 * forbidden module, and prints the gzip size of what the login page downloads.
 */
export function loginRouteGuard(loginModule = '/src/app/routes/login.tsx'): Plugin {
  return {
    name: 'portal:login-route-guard',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = new Map<string, OutputChunk>();
      for (const item of Object.values(bundle)) {
        if (item.type === 'chunk') chunks.set(item.fileName, item as unknown as OutputChunk);
      }
      const login = [...chunks.values()].find((chunk) =>
        chunk.facadeModuleId?.endsWith(loginModule),
      );
      if (!login) this.error(`login-route-guard: the ${loginModule} chunk was not found`);
      let loaded: Set<string>;
      try {
        loaded = appClosure(chunks).files;
      } catch (error) {
        this.error(`login-route-guard: ${(error as Error).message}`);
      }
      closure(chunks, login.fileName, loaded);

      const offenders: string[] = [];
      let total = 0;
      const lines: string[] = [];
      for (const fileName of loaded) {
        const chunk = chunks.get(fileName);
        if (!chunk) continue;
        for (const id of chunk.moduleIds) {
          if (FORBIDDEN.some((pattern) => pattern.test(id))) offenders.push(`${fileName}: ${id}`);
        }
        const gzip = gzipSync(chunk.code).length;
        total += gzip;
        lines.push(`  ${fileName} ${(gzip / 1000).toFixed(2)} kB gzip`);
      }
      if (offenders.length > 0) {
        this.error(`The login route loads code it must not:\n${offenders.join('\n')}`);
      }
      this.info(`login route JS (gzip): ${(total / 1000).toFixed(2)} kB\n${lines.join('\n')}`);
    },
  };
}
