import path from 'node:path';

import type { Plugin } from 'vite';

import { routes } from '../src/config/paths.ts';

/** Where the map is written, inside the build's private dot folder (the server never serves it). */
export const ROUTE_PRELOADS_FILE = '.vite/route-preloads.json';
const HUB_LAYOUT = 'app-root';

interface Chunk {
  type: 'chunk';
  fileName: string;
  isEntry: boolean;
  isDynamicEntry: boolean;
  facadeModuleId: string | null;
  imports: string[];
}

export interface RoutePreloads {
  /**
   * The app's files beyond the entry (START_MODULE and its static imports): every page loads them. The entry
   * evaluates React before it imports the app (src/main.tsx), so naming them lets them travel beside React.
   */
  app: string[];
  /** Each lazy page module, by its file's base name (`dashboard`, `building-warranty`): the files it loads. */
  pages: Record<string, string[]>;
  /** The hub layout's files (every page but the login page sits inside it). */
  hub: string[];
  /**
   * Every page's path under `/{client}/` as the router knows it (`login`, `dashboard`,
   * `calculator/building-warranty`…): the server answers any other address with a 404 status (the portal still
   * shows its own 404 page in it).
   */
  paths: string[];
}

/** The router's page paths (src/config/paths.ts `routes`, less the client parameter itself). */
export function pagePaths(tree: Record<string, unknown> = routes): string[] {
  return Object.entries(tree)
    .flatMap(([key, value]) =>
      typeof value === 'string'
        ? key === 'client'
          ? []
          : [value]
        : pagePaths(value as Record<string, unknown>),
    )
    .sort();
}

/** The files a chunk loads before it runs: itself and its static imports, recursively. */
export function closure(
  chunks: ReadonlyMap<string, { imports: string[] }>,
  fileName: string,
  into = new Set<string>(),
) {
  if (into.has(fileName)) return into;
  into.add(fileName);
  for (const imported of chunks.get(fileName)?.imports ?? []) closure(chunks, imported, into);
  return into;
}

/** The app's own module, which the entry (src/main.tsx) imports once the page's HTML has been painted. */
export const START_MODULE = '/src/start.tsx';

/**
 * The files every page loads before its own: the entry and the app (START_MODULE), each with its static imports;
 * `app` is those the entry itself does not load. Throws when the bundle has no entry or no app chunk.
 */
export function appClosure(
  chunks: ReadonlyMap<
    string,
    { imports: string[]; isEntry: boolean; facadeModuleId: string | null }
  >,
): { files: Set<string>; start: string; app: string[] } {
  const all = [...chunks.entries()];
  const entry = all.find(([, chunk]) => chunk.isEntry);
  const start = all.find(([, chunk]) => chunk.facadeModuleId?.endsWith(START_MODULE));
  if (!entry || !start)
    throw new Error(`the bundle has no entry chunk or no ${START_MODULE} chunk`);
  const files = closure(chunks, entry[0]);
  const entryFiles = new Set(files);
  closure(chunks, start[0], files);
  return { files, start: start[0], app: [...files].filter((file) => !entryFiles.has(file)) };
}

/** The map from the bundle's chunks: what each lazy page loads beyond what the entry and the app already load. */
export function routePreloads(chunks: Chunk[]): RoutePreloads {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const { files: loaded, start, app } = appClosure(byName);
  const pages: Record<string, string[]> = {};
  let hub: string[] = [];
  for (const chunk of chunks) {
    if (!chunk.isDynamicEntry || !chunk.facadeModuleId || chunk.fileName === start) continue;
    const name = path.basename(chunk.facadeModuleId).replace(/\.[jt]sx?$/, '');
    const files = [...closure(byName, chunk.fileName)].filter((file) => !loaded.has(file));
    if (name === HUB_LAYOUT) hub = files;
    else pages[name] = files;
  }
  return { app, pages, hub, paths: pagePaths() };
}

/**
 * Writes `.vite/route-preloads.json`: the app's chunks, and for each lazy page the chunks it needs that the entry
 * and the app do not already load. The server names them in the page's data (`modules`), and the entry asks for
 * them beside React (`<link rel="modulepreload">`) instead of after React has run or the router has found the page. A page module is named after the last segment of its URL
 * (`calculator/building-warranty` → building-warranty.tsx), as the bundle budget also assumes.
 */
export function routePreloadsPlugin(): Plugin {
  return {
    name: 'portal:route-preloads',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter(
        (item): item is typeof item & Chunk => item.type === 'chunk',
      ) as unknown as Chunk[];
      this.emitFile({
        type: 'asset',
        fileName: ROUTE_PRELOADS_FILE,
        source: `${JSON.stringify(routePreloads(chunks), null, 2)}\n`,
      });
    },
  };
}
