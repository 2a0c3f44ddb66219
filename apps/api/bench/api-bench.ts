/**
 * API benchmark (a script, never a timed test): autocannon on 127.0.0.1 against the built server
 * (dist/server.js, seeded demo content, LOG_LEVEL=warn), with the baselines measured in the same run:
 *
 * - GET /api/demo/content with a session cookie   vs  a bare Fastify hello-world (bench/hello-server.mjs);
 *   the GET sends the Accept-Encoding a browser sends (Chrome's `gzip, deflate, br, zstd`: every browser sends
 *   one), so the API answers the brotli-compressed hub, checked below to decode to the uncompressed answer;
 *   and again with no Accept-Encoding (autocannon's default), which gets the JSON as it is.
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
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
    rounds: { type: 'string', default: '5' },
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
  /** CPU time the server under test spent per request, in µs (Linux only; NaN elsewhere or for no server). */
  cpuPerRequest?: number;
  /** CPU time the load generator (autocannon, in this process) spent per request, in µs. */
  generatorCpuPerRequest?: number;
  p99: number;
  p50: number;
  non2xx: number;
  errors: number;
}

/** CPU time (user + system) a process has used so far, in ms, from /proc (Linux); undefined elsewhere. */
async function cpuMs(pid: number | undefined): Promise<number | undefined> {
  if (pid === undefined) return undefined;
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: the unit of /proc's CPU times (100 on every Linux the bench runs on). */
const CLOCK_TICKS = 100;

/**
 * Waits until a server is idle (under 5% of a core over 500 ms, at most 60 s): after a burst of POSTs the API
 * goes on writing the queued e-mails for a few seconds, and the next case must not share the machine with that.
 */
async function untilIdle(pid: number | undefined): Promise<void> {
  const deadline = Date.now() + 60_000;
  let before = await cpuMs(pid);
  if (before === undefined) {
    await sleep(3_000);
    return;
  }
  while (Date.now() < deadline) {
    await sleep(500);
    const now = await cpuMs(pid);
    if (now === undefined || now - before < 25) return;
    before = now;
  }
}

async function cannon(options: autocannon.Options, server?: number): Promise<Run> {
  const cpuBefore = await cpuMs(server);
  const generatorBefore = process.cpuUsage();
  const result = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...options });
  const generator = process.cpuUsage(generatorBefore);
  return {
    generatorCpuPerRequest:
      result.requests.total === 0
        ? Number.NaN
        : (generator.user + generator.system) / result.requests.total,
    rps: result.requests.average,
    p99: result.latency.p99,
    p50: result.latency.p50,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    cpuPerRequest: await cpuMs(server).then((after) =>
      after === undefined || cpuBefore === undefined || result.requests.total === 0
        ? Number.NaN
        : ((after - cpuBefore) * 1000) / result.requests.total,
    ),
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
      // One session posts quotes as fast as it can: lift the hourly limits (their check stays in every POST).
      QUOTE_LIMIT_PER_HOUR: '1000000',
      QUOTE_LIMIT_PER_ADDRESS: '1000000',
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
    // What the bench's requests get, raw (a fetch would decode it): the answer's smallest form, which the API
    // makes in the background once the quick one has been sent twice.
    const getBrotli = () => rawGet(`${apiBase}/api/demo/content`, { cookie, ...BROWSER });
    const quick = await getBrotli();
    let sent = await getBrotli();
    for (let i = 0; i < 50 && sent.body.equals(quick.body); i += 1) {
      await sleep(100);
      sent = await getBrotli();
    }
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
      hello: () => cannon({ url: `http://127.0.0.1:${helloPort}/` }, hello.pid),
      floor: () =>
        cannon({ url: `http://127.0.0.1:${helloPort}/hub`, headers: BROWSER }, hello.pid),
      content: () =>
        cannon({ url: `${apiBase}/api/demo/content`, headers: { cookie, ...BROWSER } }, api.pid),
      plain: () => cannon({ url: `${apiBase}/api/demo/content`, headers: { cookie } }, api.pid),
      warranty: () =>
        cannon(
          {
            url: `${apiBase}/api/demo/warranty`,
            method: 'POST',
            headers: { cookie, 'content-type': 'application/json' },
            body: warranty,
          },
          api.pid,
        ),
      insert: async () => bareInsert(path.join(dataDir, `bare-${Date.now()}.sqlite`)),
    };
    const runs: Record<keyof typeof cases, Run[]> = {
      hello: [],
      floor: [],
      content: [],
      plain: [],
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
    await cannon({ url: `${apiBase}/api/demo/content`, headers: { cookie }, duration: 1 });
    await cannon({
      url: `${apiBase}/api/demo/warranty`,
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: warranty,
      duration: 1,
    });
    for (let round = 1; round <= ROUNDS; round += 1) {
      for (const name of Object.keys(cases) as (keyof typeof cases)[]) {
        // Every case starts on a quiet machine: the API done with the last POSTs' e-mails, the baselines idle.
        await Promise.all([untilIdle(api.pid), untilIdle(hello.pid)]);
        const run = await cases[name]();
        runs[name].push(run);
        console.log(
          `round ${round} ${name.padEnd(8)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms` +
            (Number.isNaN(run.cpuPerRequest ?? Number.NaN)
              ? ''
              : `  server CPU ${(run.cpuPerRequest ?? 0).toFixed(0)} µs/request`) +
            (Number.isNaN(run.generatorCpuPerRequest ?? Number.NaN)
              ? ''
              : `  autocannon CPU ${(run.generatorCpuPerRequest ?? 0).toFixed(0)} µs/request`) +
            (run.non2xx + run.errors > 0 ? `  (${run.non2xx} non-2xx, ${run.errors} errors)` : ''),
        );
        if (run.non2xx + run.errors > 0)
          throw new Error(`${name}: ${run.non2xx} non-2xx answers, ${run.errors} errors`);
      }
    }
    const m = (name: keyof typeof cases, key: 'rps' | 'p99' | 'p50') =>
      median(runs[name].map((r) => r[key]));
    const getRatio = m('content', 'rps') / m('hello', 'rps');
    const plainRatio = m('plain', 'rps') / m('hello', 'rps');
    // The same ratio round by round (the cases of a round run back to back): how far one run can move it.
    const roundRatios = runs.content.map((run, i) => run.rps / (runs.hello[i]?.rps ?? Number.NaN));
    const ratioRange = `${Math.min(...roundRatios).toFixed(2)}–${Math.max(...roundRatios).toFixed(2)}`;
    const helloRange = `${Math.min(...runs.hello.map((r) => r.rps)).toFixed(0)}–${Math.max(...runs.hello.map((r) => r.rps)).toFixed(0)}`;
    const floorRatio = m('floor', 'rps') / m('hello', 'rps');
    const postRatio = m('warranty', 'rps') / m('insert', 'rps');
    const verdict = (ok: boolean) => (ok ? 'meets it' : '**misses it**');
    const cpuOf = (name: keyof typeof cases, key: 'cpuPerRequest' | 'generatorCpuPerRequest') =>
      median(runs[name].map((r) => r[key] ?? Number.NaN));
    const cpu = (
      name: keyof typeof cases,
      key: 'cpuPerRequest' | 'generatorCpuPerRequest',
      width: number,
    ) => {
      const value = cpuOf(name, key);
      return (Number.isNaN(value) ? '—' : value.toFixed(0)).padStart(width);
    };
    /** Share of one core a process was busy during a case (requests/s × CPU µs a request). */
    const percentOfCore = (
      name: keyof typeof cases,
      key: 'cpuPerRequest' | 'generatorCpuPerRequest' = 'generatorCpuPerRequest',
    ) => ((m(name, 'rps') * cpuOf(name, key)) / 10_000).toFixed(0);
    const together = (name: keyof typeof cases) =>
      (cpuOf(name, 'cpuPerRequest') + cpuOf(name, 'generatorCpuPerRequest')).toFixed(0);
    const row = (label: string, name: keyof typeof cases, latency = true) =>
      `| ${label.padEnd(45)} | ${m(name, 'rps').toFixed(0).padStart(19)} | ${(latency ? String(m(name, 'p50')) : '—').padStart(6)} | ${(latency ? String(m(name, 'p99')) : '—').padStart(6)} | ${cpu(name, 'cpuPerRequest', 13)} | ${latency ? cpu(name, 'generatorCpuPerRequest', 17) : '—'.padStart(17)} |`;
    const table = [
      '| Case                                          | Requests/s (median) | p50 ms | p99 ms | Server CPU µs | autocannon CPU µs |',
      '| --------------------------------------------- | ------------------: | -----: | -----: | ------------: | ----------------: |',
      row('bare Fastify hello-world (baseline)', 'hello'),
      row('bare Fastify sending the same brotli bytes', 'floor'),
      row('GET /api/demo/content (session, brotli)', 'content'),
      row('GET /api/demo/content (no Accept-Encoding)', 'plain'),
      row('bare better-sqlite3 insert, WAL + FULL (base)', 'insert', false),
      row('POST /api/demo/warranty (session)', 'warranty'),
    ].join('\n');
    const lines = [
      `GET content ÷ hello-world: **${getRatio.toFixed(2)}×** (target ≥ 0.5×: ${verdict(getRatio >= 0.5)}; ${ratioRange}× round by round, with the hello-world itself at ${helloRange} requests/s); ` +
        `GET p99 **${m('content', 'p99')} ms** at ${CONNECTIONS} connections (target ≤ 10 ms: ${verdict(m('content', 'p99') <= 10)}). ` +
        `Without Accept-Encoding (autocannon's default; the ${(contentBytes / 1000).toFixed(1)} KB of ASCII JSON as they are): ` +
        `**${plainRatio.toFixed(2)}×** (${verdict(plainRatio >= 0.5)}), p99 **${m('plain', 'p99')} ms** (${verdict(m('plain', 'p99') <= 10)}).`,
      `POST warranty ÷ bare insert: **${postRatio.toFixed(2)}×** (target ≥ 0.8×: ${verdict(postRatio >= 0.8)}).`,
      `For scale: GET content answers the whole hub, ${(contentBytes / 1000).toFixed(1)} KB of JSON ` +
        `(${(sentBytes / 1000).toFixed(1)} KB brotli-compressed, as sent to the bench's browser-like ` +
        `Accept-Encoding), where the hello-world answers 17 bytes: the same bare Fastify sending those ${(sentBytes / 1000).toFixed(1)} KB ` +
        `from memory does ${floorRatio.toFixed(2)}× the hello-world (the most a Fastify handler could do with this answer here), and GET content does ` +
        `${(m('content', 'rps') / m('floor', 'rps')).toFixed(2)}× that. Warranty POSTs in flight together share one fsync-ed commit, each all or nothing ` +
        "(group commit: a failing one is undone alone), and the outbox worker's claims and sent marks join those commits; each POST is answered " +
        'only after the commit holding it has returned. The bare baseline makes one fsync-ed commit per row.',
      `The load generator shares the machine's ${cpus().length} cores: during the brotli GET autocannon was busy ` +
        `${percentOfCore('content')}% of a core and the API ${percentOfCore('content', 'cpuPerRequest')}% ` +
        `(hello-world: ${percentOfCore('hello')}% and ${percentOfCore('hello', 'cpuPerRequest')}%). ` +
        'autocannon turns every answer body into a string, which costs it far more for compressed bytes than for 17 bytes; ' +
        `per request the two together spent ${together('content')} µs on the GET against ${together('hello')} µs on the hello-world.`,
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
        "sends (`gzip, deflate, br, zstd`), so it gets the brotli-compressed hub, and again with none (autocannon's",
        'default), which gets the JSON as it is. Baselines in the same run: a bare Fastify',
        'hello-world (`bench/hello-server.mjs`) for GET, with the same bare Fastify sending the very bytes the GET',
        'gets (from memory, same headers) for scale, and for POST a loop of bare better-sqlite3',
        'single-row insert transactions with the same pragmas (one fsync-ed commit each, no HTTP). Each',
        'warranty POST validates, recomputes the quote, stores it with its reference and queues the team',
        'e-mail (all or nothing within a shared commit), then the worker writes the e-mail.',
        'Each case starts once the API and the baseline server are idle (after a burst of POSTs the API goes on',
        'writing the queued e-mails for a few seconds; an earlier version of this bench measured the next cases',
        'beside that work). Server CPU µs: the CPU time the server under test spent per request during the case',
        '(user + system, from /proc), the load generator excluded; autocannon CPU µs: what the load generator (in the',
        "bench's own process) spent per request.",
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
