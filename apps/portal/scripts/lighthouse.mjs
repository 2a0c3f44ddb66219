#!/usr/bin/env node
/**
 * Lighthouse (npm, mobile settings: Moto G Power emulation, simulated slow 4G and 4× CPU slow-down) on the built
 * portal served by the built API: login, dashboard, a calculator and the insurance framework, logged in through the
 * open demo client's session cookie. Debian's Chromium at /usr/bin/chromium (or the browser `CHROMIUM` names), headless without a sandbox.
 *
 * Prints the scores and, for every category under its target, the audits Lighthouse says fall short.
 *
 * Usage: node scripts/lighthouse.mjs [--runs N] [--page PATH] [--save DIR] [--write]
 *   --runs N     runs per page, the median score is kept (default 1)
 *   --page PATH  only the page with this path or name (e.g. /demo/dashboard)
 *   --save DIR   keeps each run's full Lighthouse result (JSON) in DIR, e.g. artifacts/lighthouse
 *   --write   writes the table into docs/benchmarks.md between <!-- lighthouse:start --> and <!-- lighthouse:end -->
 * Needs: apps/api/dist (pnpm --filter @firm/api build) and apps/portal/dist (pnpm --filter @firm/portal build).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { writeDocSection } from '../../../scripts/lib/write-doc-section.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const portalRoot = path.resolve(here, '..');
const repoRoot = path.resolve(portalRoot, '../..');
const SERVER = path.join(repoRoot, 'apps', 'api', 'dist', 'server.js');
const DIST = path.join(portalRoot, 'dist');

const TARGETS = { performance: 98, accessibility: 100, 'best-practices': 100 };
const PAGES = [
  { name: 'Login', path: '/demo/login', session: false },
  { name: 'Dashboard', path: '/demo/dashboard', session: true },
  {
    name: 'Building warranty calculator',
    path: '/demo/calculator/building-warranty',
    session: true,
  },
  { name: 'Insurance framework', path: '/demo/insurance-framework', session: true },
];

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '1' },
    write: { type: 'boolean', default: false },
    page: { type: 'string' },
    save: { type: 'string' },
  },
});
const pages = values.page
  ? PAGES.filter((p) => p.path === values.page || p.name === values.page)
  : PAGES;
if (pages.length === 0) throw new Error(`--page ${values.page}: no such page`);
if (values.write && values.page) throw new Error('--write needs every page: drop --page');
const RUNS = Number(values.runs);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('--runs must be a whole number ≥ 1');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';
for (const [file, fix] of [
  [SERVER, 'build the API first'],
  [path.join(DIST, 'index.html'), 'build the portal first'],
  [CHROMIUM, 'install Chromium (apt-get install -y chromium) or name it in CHROMIUM'],
]) {
  if (!existsSync(file)) {
    console.error(`lighthouse: ${file} not found: ${fix}.`);
    process.exit(2);
  }
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-lighthouse-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const api = spawn(process.execPath, [SERVER], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PORTAL_DIST: DIST,
    PUBLIC_URL: base,
    LOG_LEVEL: 'warn',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
// However this script ends (an uncaught error included), the API it started ends with it.
process.on('exit', () => api.kill('SIGKILL'));
let chrome;
try {
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      if ((await fetch(`${base}/api/demo`)).status === 200) break;
    } catch {
      // starting
    }
    if (Date.now() > deadline) throw new Error('the API did not start within 30 s');
    await sleep(100);
  }
  const login = await fetch(`${base}/api/demo/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      first_name: 'Light',
      last_name: 'House',
      email: 'lighthouse@example.com',
      phone: '020 7946 0000',
    }),
  });
  const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
  if (login.status !== 200 || !cookie) throw new Error(`login failed: ${login.status}`);

  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });

  const results = [];
  for (const page of pages) {
    const scores = { performance: [], accessibility: [], 'best-practices': [] };
    let shortfalls = new Map();
    let metrics = {};
    for (let run = 0; run < RUNS; run += 1) {
      // A trace can fail to record on a busy machine (Lighthouse says to run again): up to 3 attempts.
      let lhr;
      for (let attempt = 1; attempt <= 3; attempt += 1) {
        const result = await lighthouse(`${base}${page.path}`, {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: Object.keys(TARGETS),
          ...(page.session ? { extraHeaders: { Cookie: cookie } } : {}),
        });
        lhr = result.lhr;
        if (!lhr.runtimeError) break;
        console.error(`  ${page.path}: ${lhr.runtimeError.code}, attempt ${attempt} of 3`);
      }
      if (lhr.runtimeError) throw new Error(`${page.path}: ${lhr.runtimeError.message}`);
      if (values.save) {
        await mkdir(values.save, { recursive: true });
        const file = path.join(
          values.save,
          `${page.path.replace(/\W+/g, '-').replace(/^-/, '')}-${run + 1}.json`,
        );
        await writeFile(file, JSON.stringify(lhr));
      }
      const finalUrl = lhr.finalDisplayedUrl ?? lhr.finalUrl;
      if (!finalUrl.endsWith(page.path)) throw new Error(`${page.path} ended at ${finalUrl}`);
      for (const category of Object.keys(TARGETS)) {
        const score = Math.round((lhr.categories[category]?.score ?? 0) * 100);
        scores[category].push(score);
        if (score < TARGETS[category]) {
          for (const ref of lhr.categories[category].auditRefs) {
            const audit = lhr.audits[ref.id];
            if (ref.weight > 0 && audit.score !== null && audit.score < 0.9) {
              const items = (audit.details?.items ?? [])
                .map((item) => item.description ?? item.node?.snippet ?? item.url ?? '')
                .filter(Boolean)
                .slice(0, 3)
                .map((text) => String(text).replace(/\s+/g, ' ').slice(0, 160));
              const detail = [audit.displayValue, ...items].filter(Boolean).join('; ');
              shortfalls.set(`${category}: ${audit.title}`, detail);
            }
          }
        }
      }
      metrics = {
        FCP: lhr.audits['first-contentful-paint']?.displayValue,
        LCP: lhr.audits['largest-contentful-paint']?.displayValue,
        TBT: lhr.audits['total-blocking-time']?.displayValue,
        CLS: lhr.audits['cumulative-layout-shift']?.displayValue,
      };
    }
    const row = {
      name: page.name,
      path: page.path,
      performance: median(scores.performance),
      performanceRange: [Math.min(...scores.performance), Math.max(...scores.performance)],
      accessibility: median(scores.accessibility),
      'best-practices': median(scores['best-practices']),
      metrics,
      shortfalls: [...shortfalls.entries()].map(([k, v]) => (v ? `${k} (${v})` : k)),
    };
    results.push(row);
    console.log(
      `${page.name.padEnd(30)} performance ${row.performance}  accessibility ${row.accessibility}  best practices ${row['best-practices']}` +
        `  (FCP ${metrics.FCP}, LCP ${metrics.LCP}, TBT ${metrics.TBT}, CLS ${metrics.CLS})`,
    );
    for (const s of row.shortfalls) console.log(`    - ${s}`);
  }

  const mark = (score, target) => (score >= target ? String(score) : `**${score}**`);
  const table = [
    '| Page                         | Path                                | Performance | Range | Accessibility | Best practices | LCP | TBT | CLS |',
    '| ---------------------------- | ----------------------------------- | ----------: | ----: | ------------: | -------------: | --: | --: | --: |',
    ...results.map(
      (r) =>
        `| ${r.name} | \`${r.path}\` | ${mark(r.performance, TARGETS.performance)} | ${r.performanceRange[0]}–${r.performanceRange[1]} | ${mark(r.accessibility, TARGETS.accessibility)} | ${mark(r['best-practices'], TARGETS['best-practices'])} | ${r.metrics.LCP} | ${r.metrics.TBT} | ${r.metrics.CLS} |`,
    ),
  ].join('\n');
  const short = results.flatMap((r) => r.shortfalls.map((s) => `- ${r.name}: ${s}`));
  const misses = results.flatMap((r) =>
    Object.entries(TARGETS)
      .filter(([category, target]) => r[category] < target)
      .map(([category, target]) => `- ${r.name}: ${category} ${r[category]} (target ${target})`),
  );
  if (values.write) {
    const version = JSON.parse(
      readFileSync(path.join(portalRoot, 'node_modules', 'lighthouse', 'package.json'), 'utf8'),
    ).version;
    const section = [
      '<!-- lighthouse:start -->',
      '',
      '## Lighthouse',
      '',
      `Written by \`pnpm --filter @firm/portal lighthouse\` (\`apps/portal/scripts/lighthouse.mjs\`): Lighthouse ${version}`,
      'from npm, default mobile settings (emulated Moto G Power, simulated slow 4G, 4× CPU slow-down),',
      'Debian’s Chromium headless, against the built portal served by the built API on 127.0.0.1, logged',
      `in through the open demo client’s session cookie; ${RUNS} run(s) per page, median score, with the`,
      'lowest and highest performance score of those runs (LCP, TBT and CLS are those of the last run).',
      'Targets: performance ≥ 98, accessibility 100, best practices 100 (a bold score misses its target).',
      'Lighthouse simulates the slow phone from a trace of the real load on this machine, so a busy machine',
      'moves the performance score by a few points from run to run.',
      '',
      table,
      '',
      // The verdict is the medians' against the targets; an audit list can be empty while a score misses (many
      // audits each a little short), so it cannot say on its own that every target is met.
      ...(misses.length === 0
        ? ['Every page meets every target.']
        : [
            'Under target (median of the runs):',
            '',
            ...misses,
            ...(short.length === 0
              ? []
              : ['', 'What Lighthouse says falls short (audits scored under 0.9):', '', ...short]),
          ]),
      '<!-- lighthouse:end -->',
    ].join('\n');
    await writeDocSection(path.join(repoRoot, 'docs', 'benchmarks.md'), 'lighthouse', section);
  }
} finally {
  if (chrome) await chrome.kill();
  api.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
}
