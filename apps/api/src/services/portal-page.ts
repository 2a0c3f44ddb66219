import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { codeOf } from '../storage-error.js';
import { compressAsync, preferredEncoding, type Encoding } from './compression.js';

/** The id of the element holding the first page's answers; the portal reads it (src/lib/boot.ts). */
export const BOOT_ELEMENT_ID = 'portal-boot';

/**
 * The GET calls each page makes as it opens, relative to `/api/{client}` (GET /api/{client} itself is always
 * included). Their answers are written into the page, so the portal draws the page without waiting for them.
 * The paths must be built exactly as the portal builds its SWR keys (src/config/paths.ts): same order of query
 * parameters, URLSearchParams encoding.
 */
const PAGE_CALLS = new Map<string, (query: URLSearchParams) => string[]>(
  Object.entries({
    dashboard: () => ['/video', '/content'],
    info: () => ['/content'],
    article: (query) => {
      const id = query.get('id');
      const type = query.get('type');
      if (id === null || type === null) return [];
      return [`/article?${new URLSearchParams({ id, type }).toString()}`];
    },
  }),
);

/**
 * JSON inside `<script type="application/json">`: nothing in it may close the element or open a comment, and the
 * two line separators JavaScript once disallowed are escaped too. The browser never runs it (the CSP allows no
 * inline script); the portal parses it.
 */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** The built portal's page: index.html and the chunks each lazy page loads (the portal's route-preloads.json). */
export interface PortalShell {
  html: string;
  /** `paths`: the router's page paths under `/{client}/` (absent from a build before it: every page then found). */
  preloads: { app?: string[]; pages: Record<string, string[]>; hub: string[]; paths?: string[] };
}

/**
 * The portal's built files are not there just now (a deploy replacing the folder, a build in progress): its
 * pages are a 503 that says so (found by the eighteenth session's fault probe: a 500 "Internal server error").
 */
export class PortalFilesMissing extends Error {
  constructor() {
    super('The portal is being updated. Please try again in a moment.');
  }
}

const isMissing = (error: unknown) => ['ENOENT', 'ENOTDIR'].includes(codeOf(error));

/**
 * The built portal's shell, read again whenever index.html changes (a rebuild replaces every hashed file, so
 * a shell kept from before it would name scripts that no longer exist); otherwise kept in memory.
 */
export function portalShellLoader(dist: string): () => Promise<PortalShell> {
  const indexFile = path.join(dist, 'index.html');
  const preloadsFile = path.join(dist, '.vite', 'route-preloads.json');
  let cached: { mtimeMs: number; shell: Promise<PortalShell> } | undefined;
  const read = async (): Promise<PortalShell> => ({
    html: await readFile(indexFile, 'utf8'),
    preloads: existsSync(preloadsFile)
      ? (JSON.parse(await readFile(preloadsFile, 'utf8')) as PortalShell['preloads'])
      : { pages: {}, hub: [] },
  });
  return async () => {
    const { mtimeMs } = await stat(indexFile).catch((error: unknown) => {
      throw isMissing(error) ? new PortalFilesMissing() : error;
    });
    if (cached?.mtimeMs !== mtimeMs) {
      const shell = read().catch((error: unknown) => {
        throw isMissing(error) ? new PortalFilesMissing() : error;
      });
      cached = { mtimeMs, shell };
      // A failed read is not kept: the next page tries again.
      shell.catch(() => {
        if (cached?.shell === shell) cached = undefined;
      });
    }
    return cached.shell;
  };
}

const SAFE_ASSET = /^assets\/[\w.-]+\.js$/;
const SAFE_MEDIA = /^\/media\/[a-z0-9-]+\/[a-f0-9]{20}\.[a-z0-9]+$/;

/**
 * The app's chunks and the page's own beyond them (the page module is named after the URL's last segment; every
 * page but the login page also loads the hub layout), for the page's data: the portal's entry asks for them beside
 * React once the HTML is painted, rather than after React has run or the router has found the page.
 */
function pageModules(shell: PortalShell, pathname: string): string[] {
  const segments = pathname.split('/').filter(Boolean);
  const last = segments.length > 1 ? (segments.at(-1) ?? '') : '';
  const pageFiles = Object.hasOwn(shell.preloads.pages, last)
    ? shell.preloads.pages[last]
    : undefined;
  const files = new Set<string>();
  if (pageFiles !== undefined) {
    for (const file of shell.preloads.app ?? []) files.add(file);
    if (last !== 'login') for (const file of shell.preloads.hub) files.add(file);
    for (const file of pageFiles) files.add(file);
  }
  return [...files].filter((file) => SAFE_ASSET.test(file)).map((file) => `/${file}`);
}

/**
 * `<link rel="preload" as="image">` for the images the page opens with (the client's logo, the dashboard video's
 * poster), known from the answers.
 */
function imagePreloads(answers: Record<string, unknown>, base: string): string[] {
  const logo = (answers[base] as { branding?: { logo_url?: unknown } } | undefined)?.branding
    ?.logo_url;
  const poster = (answers[`${base}/video`] as { poster?: unknown } | undefined)?.poster;
  const links: string[] = [];
  for (const image of [logo, poster]) {
    if (typeof image === 'string' && SAFE_MEDIA.test(image)) {
      links.push(`<link rel="preload" as="image" href="${image}">`);
    }
  }
  return links;
}

export interface PortalPageRequest {
  /** The URL path and query of the page (`/demo/dashboard`, `/demo/article?id=…&type=…`). */
  url: string;
  /** The request's Cookie header, passed on to the calls so they answer as they would to the browser. */
  cookie: string | undefined;
}

/** A page of the portal: its HTML, and whether the router has such a page for such a client (else a 404). */
export interface PortalPage {
  html: string;
  found: boolean;
  /** Where the page sends the request instead (a hub page opened with no session: the client's login page). */
  location?: string;
}

/** Whether the path after the client's prefix is its login page (as the router compares paths: see isPagePath). */
function isLoginPath(segments: string[]): boolean {
  return pathAfterClient(segments) === 'login';
}

/** Whether the client's answer (`GET /api/{client}`) says the request's session is a user's. */
function isLoggedIn(answer: unknown): boolean {
  return (answer as { logged_in?: unknown }).logged_in === true;
}

/**
 * Whether the router has a page at this path after the client's prefix (`''` is the client's own address, which
 * leads to its dashboard). The router compares paths without regard to case, decoded, and a trailing slash
 * makes no difference; so does this. Without the build's list of paths every page counts as found.
 */
function isPagePath(shell: PortalShell, segments: string[]): boolean {
  const known = shell.preloads.paths;
  if (known === undefined || segments.length === 0) return true;
  const rest = pathAfterClient(segments);
  return rest !== undefined && known.includes(rest);
}

/**
 * The path after the client's prefix as the router reads it: each segment decoded, lower case, joined by `/`; or
 * `undefined` when a segment does not decode, or decodes to a `/` (`calculator%2Fbuilding-warranty` is one segment
 * to the router, which has no page for it; read as two, it was served as the calculator, which the portal then
 * showed as its 404 page: found by the twenty-fourth session's second portal probe).
 */
function pathAfterClient(segments: string[]): string | undefined {
  try {
    const decoded = segments.map((segment) => decodeURIComponent(segment));
    if (decoded.some((segment) => segment.includes('/'))) return undefined;
    return decoded.join('/').toLowerCase();
  } catch {
    return undefined;
  }
}

/**
 * The portal's index.html for a page under `/{client}/…`, with the answers of the GET calls the page opens with
 * (see PAGE_CALLS), each made through the app itself (`inject`), so tenancy, sessions and validation are exactly
 * those of the API. Only 200 answers are written; anything else the portal asks for itself. An unknown client or
 * a path the router has no page for is not `found` (the spec's "an unmatched URL gives 404 Not Found": the status
 * says so, and the portal shows its 404 page).
 */
export async function renderPortalPage(
  app: FastifyInstance,
  shell: PortalShell,
  request: PortalPageRequest,
): Promise<PortalPage> {
  const url = new URL(request.url, 'http://portal.invalid');
  const segments = url.pathname.split('/').filter(Boolean);
  const [prefix = '', page = ''] = segments;
  const base = `/api/${encodeURIComponent(prefix)}`;
  const isPage = isPagePath(shell, segments.slice(1));
  // The page's own calls only for a page the router has (`/demo/dashboard/x` is no dashboard).
  const pageCalls = isPage ? (PAGE_CALLS.get(page)?.(url.searchParams) ?? []) : [];
  const calls = [base, ...pageCalls.map((p) => base + p)];
  const answers: Record<string, unknown> = {};
  const responses = await Promise.all(
    calls.map((path) =>
      app.inject({
        method: 'GET',
        url: path,
        headers: request.cookie === undefined ? {} : { cookie: request.cookie },
      }),
    ),
  );
  const found = isPage && responses[0]?.statusCode !== 404;
  responses.forEach((response, i) => {
    const path = calls[i];
    if (path === undefined || response.statusCode !== 200) return;
    try {
      answers[path] = response.json();
    } catch {
      // not JSON: the portal asks for it itself
    }
  });
  // Without the client's own answer (unknown client) the portal finds out for itself and shows its 404 page.
  if (answers[base] === undefined) return { html: shell.html, found };
  // A hub page (every page but the login page, the client's own address included) opened with no session: the
  // portal would go to the login page, but only after fetching the page's code, the hub's and, for a calculator,
  // the pricing rules beside its check of the session (found by the twenty-fourth session's portal probe: the
  // login page was not to load calculator code). The server, which knows, sends the browser there at once.
  if (found && !isLoginPath(segments.slice(1)) && !isLoggedIn(answers[base])) {
    return { html: '', found, location: `/${prefix}/login` };
  }
  const modules = pageModules(shell, url.pathname);
  const boot = `<script type="application/json" id="${BOOT_ELEMENT_ID}">${jsonForScript({ answers, modules })}</script>`;
  const links = imagePreloads(answers, base);
  // Replacer functions: a replacement string would read `$\``, `$'` and `$$` in the data as patterns (a
  // name holding `$\`` pasted the page's own HTML into its data).
  const html = shell.html
    .replace('</head>', () => `${links.map((link) => `    ${link}\n`).join('')}  </head>`)
    .replace('</body>', () => `  ${boot}\n  </body>`);
  return { html, found };
}

/**
 * A page's HTML compressed for the request's Accept-Encoding (Brotli, else gzip, else none): with the first
 * answers in it the dashboard's HTML is ~35 KB, ~7 KB compressed. The page is never stored, so it is
 * compressed per request.
 */
export async function encodePage(
  html: string,
  acceptEncoding: string | undefined,
): Promise<{ body: Buffer; encoding: Encoding | undefined }> {
  const body = Buffer.from(html);
  const encoding = preferredEncoding(acceptEncoding);
  return { body: encoding === undefined ? body : await compressAsync(body, encoding), encoding };
}
