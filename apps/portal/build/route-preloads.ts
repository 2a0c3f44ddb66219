import path from 'node:path';

import type { Plugin } from 'vite';

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
  /** Each lazy page module, by its file's base name (`dashboard`, `building-warranty`): the files it loads. */
  pages: Record<string, string[]>;
  /** The hub layout's files (every page but the login page sits inside it). */
  hub: string[];
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

/** The map from the bundle's chunks: what each lazy page loads beyond what the entry already loads. */
export function routePreloads(chunks: Chunk[]): RoutePreloads {
  const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
  const entry = chunks.find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('route-preloads: the bundle has no entry chunk');
  const loaded = closure(byName, entry.fileName);
  const pages: Record<string, string[]> = {};
  let hub: string[] = [];
  for (const chunk of chunks) {
    if (!chunk.isDynamicEntry || !chunk.facadeModuleId) continue;
    const name = path.basename(chunk.facadeModuleId).replace(/\.[jt]sx?$/, '');
    const files = [...closure(byName, chunk.fileName)].filter((file) => !loaded.has(file));
    if (name === HUB_LAYOUT) hub = files;
    else pages[name] = files;
  }
  return { pages, hub };
}

/**
 * Writes `.vite/route-preloads.json`: for each lazy page, the chunks it needs that the entry does not already
 * load. The server names them in the page's HTML (`<link rel="modulepreload">`), so the browser fetches them
 * beside the entry script instead of after it has run. A page module is named after the last segment of its URL
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
