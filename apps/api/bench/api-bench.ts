/**
 * API benchmark (a script, never a timed test): autocannon on 127.0.0.1 against the built server
 * (dist/server.js, seeded demo content, LOG_LEVEL=warn), with the baselines measured in the same run:
 *
 * - GET /api/demo/content with a session cookie   vs  a bare Fastify hello-world (bench/hello-server.mjs);
 *   the GET sends the Accept-Encoding a browser sends (Chrome's `gzip, deflate, br, zstd`: every browser sends
 *   one), so the API answers the brotli-compressed hub, checked below to decode to the uncompressed answer.
 *   For scale, the same bare Fastify also sends those very bytes from memory (GET /hub): the most any handler
 *   could reach with this answer on this machine (the hello-world answers 17 bytes)
 * - POST /api/demo/warranty with a session cookie vs  bare better-sqlite3 inserts, one transaction each,
 *   journal_mode=WAL and synchronous=FULL (what the API uses), in a loop in this process
 *
 * Each case runs ROUNDS times, interleaved (so a busy machine slows every case alike); medians are reported.
 * Targets (issue 5): GET ≥ 0.5× the hello-world with p99 ≤ 10 ms at 100 connections; POST ≥ 0.8× the bare insert.
 *
 * Usage: tsx bench/api-bench.ts [--duration S] [--rounds N] [--connections N] [--write]
 *   --write  writes the table into docs/benchmarks.md between <!-- api:start --> and <!-- api:end -->
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { brotliDecompressSync } from 'node:zlib';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { writeDocSection } from '../../../scripts/lib/write-doc-section.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiRoot = path.resolve(here, '..');
const repoRoot = path.resolve(apiRoot, '../..');
const SERVER = path.join(apiRoot, 'dist', 'server.js');

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '3' },
    connections: { type: 'string', default: '100' },
    write: { type: 'boolean', default: false },
  },
});
const DURATION = Number(values.duration);
const ROUNDS = Number(values.rounds);
const CONNECTIONS = Number(values.connections);
for (const [name, n] of Object.entries({ DURATION, ROUNDS, CONNECTIONS })) {
  if (!Number.isInteger(n) || n < 1)
    throw new Error(`${name.toLowerCase()} must be a whole number ≥ 1`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        resolve(typeof address === 'object' && address !== null ? address.port : 0),
      );
    });
  });
}

/** The Accept-Encoding every current browser sends (Chrome's; Firefox and Safari send the same codings). */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br, zstd' };

/** A GET whose body is returned as sent (no decoding), with its status and headers. */
function rawGet(
  url: string,
  headers: Record<string, string>,
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      );
      response.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).status < 500) return;
    } catch {
      // not yet
    }
    if (child.exitCode !== null) throw new Error(`${url}: the server exited (${child.exitCode})`);
    await sleep(50);
  }
  throw new Error(`${url}: not up within 30 s`);
}

interface Run {
  rps: number;
  p99: number;
  p50: number;
  non2xx: number;
  errors: number;
}

async function cannon(options: autocannon.Options): Promise<Run> {
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

/** Bare better-sqlite3: single-row insert transactions, WAL + synchronous=FULL, for DURATION seconds. */
function bareInsert(file: string): Run {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(
    'create table if not exists t (id integer primary key, reference text, body text, created_at text)',
  );
  const insert = db.prepare('insert into t (reference, body, created_at) values (?, ?, ?)');
  const body = JSON.stringify({
    build_type: 'New Build',
    units: 1,
    build_value: 500000,
    GDV: 500000,
  });
  const end = performance.now() + DURATION * 1000;
  let n = 0;
  while (performance.now() < end) {
    insert.run(`BW-2026-${n}`, body, new Date().toISOString());
    n += 1;
  }
  db.close();
  return { rps: n / DURATION, p99: 0, p50: 0, non2xx: 0, errors: 0 };
}

async function main() {
  if (!existsSync(SERVER))
    throw new Error(`${SERVER} not found: build the API first (pnpm --filter @firm/api build)`);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-bench-'));
  const [apiPort, helloPort] = [await freePort(), await freePort()];
  const api = spawn(process.execPath, [SERVER], {
    env: {
      ...process.env,
      PORT: String(apiPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://127.0.0.1:${apiPort}`,
      PORTAL_DIST: path.join(dataDir, 'no-portal'),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const hello = fork(path.join(here, 'hello-server.mjs'), {
    env: { ...process.env, PORT: String(helloPort), HUB_FILE: path.join(dataDir, 'hub.br') },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const apiBase = `http://127.0.0.1:${apiPort}`;
    await waitFor(`${apiBase}/api/demo`, api);
    await waitFor(`http://127.0.0.1:${helloPort}/`, hello);
    const login = await fetch(`${apiBase}/api/demo/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        first_name: 'Bench',
        last_name: 'Mark',
        email: 'bench@example.com',
        phone: '020 7946 0000',
      }),
    });
    const cookie = login.headers.getSetCookie()[0]?.split(';')[0];
    if (login.status !== 200 || cookie === undefined)
      throw new Error(`login failed: ${login.status}`);
    const warranty = JSON.stringify({
      build_type: 'New Build',
      stageType: 'Not Started',
      units: 12,
      build_value: 2_500_000,
      GDV: 6_000_000,
      name: 'Bench Mark',
      telephone: '020 7946 0000',
      email: 'bench@example.com',
    });
    const plain = await fetch(`${apiBase}/api/demo/content`, {
      headers: { cookie, 'accept-encoding': 'identity' },
    });
    if (plain.status !== 200) throw new Error(`GET content answered ${plain.status}`);
    const plainBody = Buffer.from(await plain.arrayBuffer());
    const contentBytes = plainBody.byteLength;
    // What the bench's requests get, raw: a fetch would decode it.
    const sent = await rawGet(`${apiBase}/api/demo/content`, { cookie, ...BROWSER });
    const encoding = sent.headers['content-encoding'];
    if (sent.status !== 200 || encoding !== 'br')
      throw new Error(
        `GET content (Accept-Encoding) answered ${sent.status}, ${encoding ?? 'identity'}`,
      );
    if (!brotliDecompressSync(sent.body).equals(plainBody))
      throw new Error('GET content: the brotli answer does not decode to the uncompressed one');
    const sentBytes = sent.body.byteLength;
    await writeFile(path.join(dataDir, 'hub.br'), sent.body);

    const cases = {
      hello: () => cannon({ url: `http://127.0.0.1:${helloPort}/` }),
      floor: () => cannon({ url: `http://127.0.0.1:${helloPort}/hub`, headers: BROWSER }),
      content: () =>
        cannon({ url: `${apiBase}/api/demo/content`, headers: { cookie, ...BROWSER } }),
      warranty: () =>
        cannon({
          url: `${apiBase}/api/demo/warranty`,
          method: 'POST',
          headers: { cookie, 'content-type': 'application/json' },
          body: warranty,
        }),
      insert: async () => bareInsert(path.join(dataDir, `bare-${Date.now()}.sqlite`)),
    };
    const runs: Record<keyof typeof cases, Run[]> = {
      hello: [],
      floor: [],
      content: [],
      warranty: [],
      insert: [],
    };
    // Warm-up (JIT, caches), not counted.
    await cannon({ url: `http://127.0.0.1:${helloPort}/`, duration: 1 });
    await cannon({ url: `http://127.0.0.1:${helloPort}/hub`, headers: BROWSER, duration: 1 });
    await cannon({
      url: `${apiBase}/api/demo/content`,
      headers: { cookie, ...BROWSER },
      duration: 1,
    });
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const name of Object.keys(cases) as (keyof typeof cases)[]) {
        const run = await cases[name]();
        runs[name].push(run);
        console.log(
          `round ${round} ${name.padEnd(8)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms` +
            (run.non2xx + run.errors > 0 ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : ''),
        );
        if (run.non2xx + run.errors > 0)
          throw new Error(`${name}: ${run.non2xx} non-2xx answers, ${run.errors} errors`);
      }
    }
    const m = (name: keyof typeof cases, key: 'rps' | 'p99' | 'p50') =>
      median(runs[name].map((r) => r[key]));
    const getRatio = m('content', 'rps') / m('hello', 'rps');
    const floorRatio = m('floor', 'rps') / m('hello', 'rps');
    const postRatio = m('warranty', 'rps') / m('insert', 'rps');
    const verdict = (ok: boolean) => (ok ? 'meets it' : '**misses it**');
    const table = [
      '| Case                                          | Requests/s (median) | p50 ms | p99 ms |',
      '| --------------------------------------------- | ------------------: | -----: | -----: |',
      `| bare Fastify hello-world (baseline)           | ${m('hello', 'rps').toFixed(0).padStart(19)} | ${String(m('hello', 'p50')).padStart(6)} | ${String(m('hello', 'p99')).padStart(6)} |`,
      `| bare Fastify sending the same brotli bytes    | ${m('floor', 'rps').toFixed(0).padStart(19)} | ${String(m('floor', 'p50')).padStart(6)} | ${String(m('floor', 'p99')).padStart(6)} |`,
      `| GET /api/demo/content (session, brotli)       | ${m('content', 'rps').toFixed(0).padStart(19)} | ${String(m('content', 'p50')).padStart(6)} | ${String(m('content', 'p99')).padStart(6)} |`,
      `| bare better-sqlite3 insert, WAL + FULL (base) | ${m('insert', 'rps').toFixed(0).padStart(19)} |      — |      — |`,
      `| POST /api/demo/warranty (session)             | ${m('warranty', 'rps').toFixed(0).padStart(19)} | ${String(m('warranty', 'p50')).padStart(6)} | ${String(m('warranty', 'p99')).padStart(6)} |`,
    ].join('\n');
    const lines = [
      `GET content ÷ hello-world: **${getRatio.toFixed(2)}×** (target ≥ 0.5×: ${verdict(getRatio >= 0.5)}); ` +
        `GET p99 **${m('content', 'p99')} ms** at ${CONNECTIONS} connections (target ≤ 10 ms: ${verdict(m('content', 'p99') <= 10)}).`,
      `POST warranty ÷ bare insert: **${postRatio.toFixed(2)}×** (target ≥ 0.8×: ${verdict(postRatio >= 0.8)}).`,
      `For scale: GET content answers the whole hub, ${(contentBytes / 1000).toFixed(1)} KB of JSON ` +
        `(${(sentBytes / 1000).toFixed(1)} KB brotli-compressed, as sent to the bench's browser-like ` +
        `Accept-Encoding), where the hello-world answers 17 bytes: the same bare Fastify sending those ${(sentBytes / 1000).toFixed(1)} KB ` +
        `from memory does ${floorRatio.toFixed(2)}× the hello-world (the most a Fastify handler could do with this answer here), and GET content does ` +
        `${(m('content', 'rps') / m('floor', 'rps')).toFixed(2)}× that. Warranty POSTs in flight together share one fsync-ed commit, each in its own savepoint ` +
        "(group commit), and the outbox worker's claims and sent marks join those commits; each POST is answered " +
        'only after the commit holding it has returned. The bare baseline makes one fsync-ed commit per row.',
    ];
    console.log(`\n${table}\n\n${lines.join('\n')}`);
    if (values.write) {
      const section = [
        '<!-- api:start -->',
        '',
        '## API',
        '',
        'Written by `pnpm --filter @firm/api bench` (`apps/api/bench/api-bench.ts`): autocannon on 127.0.0.1,',
        `${CONNECTIONS} connections, ${DURATION} s per case, ${ROUNDS} interleaved rounds, medians. The API is the`,
        'built server (`dist/server.js`, SQLite in WAL mode with synchronous=FULL, seeded demo content,',
        'LOG_LEVEL=warn), logged in with a session cookie; the GET sends the Accept-Encoding a browser',
        'sends (`gzip, deflate, br, zstd`), so it gets the brotli-compressed hub. Baselines in the same run: a bare Fastify',
        'hello-world (`bench/hello-server.mjs`) for GET, with the same bare Fastify sending the very bytes the GET',
        'gets (from memory, same headers) for scale, and for POST a loop of bare better-sqlite3',
        'single-row insert transactions with the same pragmas (one fsync-ed commit each, no HTTP). Each',
        'warranty POST validates, recomputes the quote, stores it with its reference and queues the team',
        'e-mail (all or nothing, in its own savepoint of a shared commit), then the worker writes the e-mail.',
        '',
        table,
        '',
        ...lines.flatMap((l) => [l, '']),
        `Measured ${new Date().toISOString().slice(0, 10)} on Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model.trim() ?? 'CPU'}, ` +
          `load average ${loadavg()[0]?.toFixed(1)} at the end (the machine is shared; ratios measured in the same interleaved rounds hold better than absolute figures).`,
        '<!-- api:end -->',
      ].join('\n');
      await writeDocSection(path.join(repoRoot, 'docs', 'benchmarks.md'), 'api', section);
    }
  } finally {
    api.kill('SIGKILL');
    hello.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
}

await main();
