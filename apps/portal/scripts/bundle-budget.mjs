#!/usr/bin/env node
/**
 * Bundle budget: the gzip size of each route's first-load JavaScript, from the Vite build's manifest.
 *
 * First load of a route = the entry chunk + the app chunk it imports once the page is painted (src/start.tsx) +
 * the route's lazy chunk (and, for hub pages, the hub layout's lazy chunk) + every chunk they import statically,
 * each file counted once. The 404 and error pages (`route-error`) are a lazy chunk the app fetches once a page is
 * drawn; their row is the 404 page outside the hub (an unknown client, an unmatched address). Dynamic imports inside a route (loaded
 * later, on demand) are not first load. Sizes are gzip level 9 of each file, as served; 1 KB = 1,000 bytes.
 *
 * Fails (exit 1) when the login route is over its budget. Deterministic: same build → same table.
 *
 * Usage: node scripts/bundle-budget.mjs [--dist DIR] [--write]
 *   --write   also writes the table into docs/benchmarks.md between <!-- bundle:start --> and <!-- bundle:end -->
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { gzipSync } from 'node:zlib';
import { writeDocSection } from '../../../scripts/lib/write-doc-section.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const portalRoot = path.resolve(here, '..');
const repoRoot = path.resolve(portalRoot, '../..');

/** Budgets in bytes of gzip. The login page is the one every visitor downloads first. */
export const BUDGETS = { login: 125_000 };
const START_MODULE = 'src/start.tsx';
const LOGIN_MODULE = 'src/app/routes/login.tsx';
const HUB_LAYOUT_MODULE = 'src/app/routes/app/app-root.tsx';
/** The 404 and error pages: drawn outside the hub layout (as the login page) when the first page is one. */
const ERROR_PAGES_MODULE = 'src/app/routes/route-error.tsx';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: path.join(portalRoot, 'dist') },
    write: { type: 'boolean', default: false },
  },
});

const dist = path.resolve(values.dist);
const manifestFile = path.join(dist, '.vite', 'manifest.json');
if (!existsSync(manifestFile)) {
  console.error(
    `bundle-budget: ${manifestFile} not found. Build the portal first (pnpm --filter @firm/portal build, with build.manifest: true).`,
  );
  process.exit(2);
}
/** @type {Record<string, { file: string, isEntry?: boolean, isDynamicEntry?: boolean, imports?: string[], dynamicImports?: string[] }>} */
const manifest = JSON.parse(readFileSync(manifestFile, 'utf8'));

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length !== 1) {
  console.error(
    `bundle-budget: expected one entry chunk in the manifest, found ${entries.length}.`,
  );
  process.exit(2);
}
const [entryKey] = entries[0];

/** A manifest key and everything it imports statically (recursively). */
function staticClosure(key, into = new Set()) {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`bundle-budget: the manifest has no chunk "${key}"`);
  into.add(key);
  for (const imported of chunk.imports ?? []) staticClosure(imported, into);
  return into;
}

const gzipCache = new Map();
function sizes(key) {
  if (!gzipCache.has(key)) {
    const file = path.join(dist, manifest[key].file);
    const raw = readFileSync(file);
    gzipCache.set(key, { raw: raw.length, gzip: gzipSync(raw, { level: 9 }).length });
  }
  return gzipCache.get(key);
}

/** A route's name from its module path: src/features/calculators/routes/btr-warranty.tsx → btr-warranty. */
const routeName = (key) => path.basename(key).replace(/\.[jt]sx?$/, '');

if (!(manifest[entryKey].dynamicImports ?? []).includes(START_MODULE)) {
  console.error(`bundle-budget: the app (${START_MODULE}) is not a lazy chunk of the entry.`);
  process.exit(2);
}
/** The routes' lazy modules: the dynamic imports of the app and of its static imports. */
const lazyModules = [
  ...new Set(
    [...staticClosure(START_MODULE)].flatMap((key) =>
      (manifest[key].dynamicImports ?? []).filter(
        (lazy) => lazy !== START_MODULE && manifest[lazy]?.isDynamicEntry,
      ),
    ),
  ),
];
if (!lazyModules.includes(LOGIN_MODULE)) {
  console.error(
    `bundle-budget: the login route (${LOGIN_MODULE}) is not a lazy chunk of the entry.`,
  );
  process.exit(2);
}
if (!lazyModules.includes(HUB_LAYOUT_MODULE)) {
  console.error(
    `bundle-budget: the hub layout (${HUB_LAYOUT_MODULE}) is not a lazy chunk of the entry.`,
  );
  process.exit(2);
}

const rows = lazyModules
  .filter((key) => key !== HUB_LAYOUT_MODULE)
  .map((key) => {
    const roots =
      key === LOGIN_MODULE || key === ERROR_PAGES_MODULE
        ? [entryKey, START_MODULE, key]
        : [entryKey, START_MODULE, HUB_LAYOUT_MODULE, key];
    const closure = new Set();
    for (const root of roots) staticClosure(root, closure);
    let raw = 0;
    let gzip = 0;
    for (const chunk of closure) {
      raw += sizes(chunk).raw;
      gzip += sizes(chunk).gzip;
    }
    const name = routeName(key);
    return { name, module: key, chunks: closure.size, raw, gzip, budget: BUDGETS[name] };
  })
  .sort((a, b) =>
    a.name === 'login' ? -1 : b.name === 'login' ? 1 : a.name.localeCompare(b.name),
  );

const kb = (bytes) => (bytes / 1000).toFixed(1);
const entryOnly = sizes(entryKey);
const header = ['Route', 'Chunks', 'Raw KB', 'Gzip KB', 'Budget (gzip)'];
const body = rows.map((r) => [
  r.name,
  String(r.chunks),
  kb(r.raw),
  kb(r.gzip),
  r.budget === undefined ? '—' : `${kb(r.budget)} KB ${r.gzip <= r.budget ? 'ok' : '**over**'}`,
]);
const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
const line = (cells) =>
  `| ${cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
const separator = `| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`;
const table = [line(header), separator, ...body.map(line)].join('\n');

console.log(table);
console.log(`\nEntry chunk alone: ${kb(entryOnly.gzip)} KB gzip (${kb(entryOnly.raw)} KB raw).`);

const over = rows.filter((r) => r.budget !== undefined && r.gzip > r.budget);

if (values.write) {
  const login = rows.find((r) => r.name === 'login');
  const section = [
    '<!-- bundle:start -->',
    '',
    '## Portal bundle',
    '',
    'Written by `node apps/portal/scripts/bundle-budget.mjs --write` from the Vite manifest of',
    '`apps/portal/dist`. First load of a route = the entry chunk + the app chunk it asks for once the',
    'page is painted (`src/start.tsx`) + the route’s lazy chunk (hub pages also load the hub layout',
    'chunk) + all their static imports, each file once; gzip level 9 of each file, 1 KB = 1,000 bytes.',
    '`route-error` is the 404 and error pages outside the hub (an unknown client, an unmatched address): every',
    'page fetches their chunk once it is drawn.',
    'CI fails when the login route is over budget.',
    '',
    table,
    '',
    `Login route: **${kb(login.gzip)} KB gzip** (budget ${kb(BUDGETS.login)} KB: ${login.gzip <= BUDGETS.login ? 'within it' : 'over it'}). Entry chunk alone: ${kb(entryOnly.gzip)} KB gzip.`,
    '<!-- bundle:end -->',
  ].join('\n');
  await writeDocSection(path.join(repoRoot, 'docs', 'benchmarks.md'), 'bundle', section);
}

if (over.length > 0) {
  for (const r of over) {
    console.error(
      `bundle-budget: ${r.name} loads ${kb(r.gzip)} KB gzip, over its ${kb(r.budget)} KB budget.`,
    );
  }
  process.exit(1);
}
console.log(`Login route within its budget (${kb(BUDGETS.login)} KB gzip).`);
