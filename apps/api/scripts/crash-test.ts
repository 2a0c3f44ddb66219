/**
 * Crash test: the built server (dist/server.js) on 127.0.0.1 with a fresh DATA_DIR, concurrent clients posting
 * submissions that carry their own ids (building warranty quotes: the contact name; due diligence: the project
 * name, with random attachments), SIGKILL at random moments, restart, repeat. Then, with the server stopped:
 *
 * - every acknowledged submission (201 / 303 received) is stored exactly once;
 * - each stored submission came with its team e-mail in the outbox (written to the outbox folder once, and
 *   there if marked sent), and each portal client's references of each kind run
 *   1, 2, 3 … without a gap or a repeat, matching the counter (a POST is all or nothing, and POSTs committed
 *   together, then killed before their commit, give their numbers back);
 * - every stored attachment's SHA-256 matches the file on disk (acknowledged ones also match what was sent);
 * - after one more start with no load, every queued mail is sent (none lost), once, each due diligence
 *   mail's attachment matches its request's SHA-256, and no partial upload (`tmp-*`) of a killed process is
 *   left;
 * - no row points at a temporary, partial or missing file;
 * - SQLite's `PRAGMA integrity_check` is ok.
 *
 * Usage: tsx scripts/crash-test.ts [--small | --large] [--kills N] [--clients N] [--max-file BYTES] [--seed N]
 *   --small (default, CI, about a minute): 10 kills, 16 clients, attachments up to 256 KB
 *   --large: 40 kills, 64 clients, attachments up to 4 MB
 * Many clients at once make the server commit several POSTs together (group commit), so kills land in the
 * middle of shared commits too.
 * Exit code 0 when every check holds, 1 otherwise (the failures are listed), 2 when it cannot run (no build, or
 * DATABASE_URL set: it checks SQLite only).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiRoot = path.resolve(here, '..');
const SERVER = path.join(apiRoot, 'dist', 'server.js');

// `pnpm crash-test -- --large` hands the script a literal `--` first (pnpm 10): skip it.
const argv = process.argv.slice(2);
const { values } = parseArgs({
  args: argv[0] === '--' ? argv.slice(1) : argv,
  options: {
    small: { type: 'boolean', default: false },
    large: { type: 'boolean', default: false },
    kills: { type: 'string' },
    clients: { type: 'string' },
    'max-file': { type: 'string' },
    seed: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});

const preset = values.large
  ? { kills: 40, clients: 64, maxFile: 4 * 1024 * 1024 }
  : { kills: 10, clients: 16, maxFile: 256 * 1024 };
const wholeNumber = (name: string, raw: string | undefined, fallback: number) => {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 1)
    throw new Error(`--${name} must be a whole number ≥ 1 (got "${raw}")`);
  return n;
};
const KILLS = wholeNumber('kills', values.kills, preset.kills);
const CLIENTS = wholeNumber('clients', values.clients, preset.clients);
const MAX_FILE = wholeNumber('max-file', values['max-file'], preset.maxFile);

/** A small seeded PRNG (mulberry32), so a failing run can be replayed with --seed. */
let seed = wholeNumber('seed', values.seed, Math.floor(Math.random() * 2 ** 31));
const SEED = seed;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = seed;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const between = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/** Stops the clients and the server when the run fails half-way (set by main). */
let emergencyStop: () => void = () => undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sent {
  id: string;
  kind: 'warranty' | 'due-diligence';
  sha256: string | null;
  size: number;
}

async function main(): Promise<number> {
  // The server it starts is given this process's environment, and its checks read portal.sqlite. Found by the
  // twenty-fifth session's PostgreSQL probe: with DATABASE_URL set the server ran on PostgreSQL, and the run ended in
  // "SqliteError: no such table: outbox", leaving its DATA_DIR behind.
  if (process.env.DATABASE_URL !== undefined) {
    console.error('The crash test checks SQLite in DATA_DIR: unset DATABASE_URL.');
    return 2;
  }
  if (!existsSync(SERVER)) {
    console.error(
      `crash-test: ${SERVER} not found. Build the API first: pnpm --filter @firm/api build`,
    );
    return 2;
  }
  const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-crash-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const logFile = path.join(dataDir, 'server.log');
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: base,
    PORTAL_DIST: path.join(dataDir, 'no-portal'),
    LOG_LEVEL: 'info',
    LOGIN_LIMIT_PER_EMAIL: '10000',
    LOGIN_LIMIT_PER_ADDRESS: '100000',
    // Each client posts many quotes and due diligence requests in one session, all from 127.0.0.1: lift the hourly
    // limits.
    DUE_DILIGENCE_LIMIT_PER_HOUR: '1000000',
    DUE_DILIGENCE_LIMIT_PER_ADDRESS: '1000000',
    QUOTE_LIMIT_PER_HOUR: '1000000',
    QUOTE_LIMIT_PER_ADDRESS: '1000000',
    OUTBOX_POLL_MS: '500',
  };

  let server: ChildProcess | undefined;
  let up = false;
  const start = async () => {
    const log = openSync(logFile, 'a');
    server = spawn(process.execPath, [SERVER], { env, stdio: ['ignore', log, log] });
    closeSync(log);
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline) {
      try {
        const response = await fetch(`${base}/api/demo`);
        if (response.status === 200) {
          up = true;
          return;
        }
      } catch {
        // not listening yet
      }
      if (server.exitCode !== null || server.signalCode !== null) {
        const tail = (await readFile(logFile, 'utf8')).trim().split('\n').slice(-5).join('\n');
        throw new Error(
          `the server exited by itself (${server.exitCode ?? server.signalCode}); the end of ${logFile}:\n${tail}`,
        );
      }
      await sleep(50);
    }
    throw new Error(`the server did not start within 30 s; see ${logFile}`);
  };
  const kill = async () => {
    up = false;
    const child = server;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };

  const acknowledged: Sent[] = [];
  let attempted = 0;
  let failed = 0;
  let refused = 0;
  let stop = false;

  const login = async (): Promise<string> => {
    for (;;) {
      try {
        const response = await fetch(`${base}/api/demo/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            first_name: 'Crash',
            last_name: 'Tester',
            email: `crash-${randomUUID()}@example.com`,
            phone: '020 7946 0999',
          }),
        });
        const cookie = response.headers.getSetCookie().find((c) => c.startsWith('sid='));
        if (response.status === 200 && cookie !== undefined) return cookie.split(';')[0] ?? '';
      } catch {
        // down: try again
      }
      await sleep(100);
    }
  };

  const submit = async (
    cookie: string,
  ): Promise<{ status: number; sent: Sent } | { status: 'error'; sent: Sent }> => {
    const id = `crash-${randomUUID()}`;
    if (random() < 0.5) {
      const sent: Sent = { id, kind: 'warranty', sha256: null, size: 0 };
      try {
        const response = await fetch(`${base}/api/demo/warranty`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie },
          body: JSON.stringify({
            build_type: 'New Build',
            stageType: 'Not Started',
            units: between(1, 50),
            // Within @firm/pricing's slider limits (steps of £50,000 from £500,000).
            build_value: between(10, 200) * 50_000,
            GDV: between(200, 400) * 50_000,
            name: id,
            telephone: '020 7946 0999',
            email: 'crash@example.com',
          }),
        });
        await response.arrayBuffer();
        return { status: response.status, sent };
      } catch {
        return { status: 'error', sent };
      }
    }
    const form = new FormData();
    form.set('SingleLine', id);
    form.set('SingleLine1', '1 Crash Street');
    form.set('SingleLine2', 'Testtown TT1 1TT');
    form.set('SingleLine3', 'A crash test project.');
    let sha256: string | null = null;
    let size = 0;
    if (random() < 0.8) {
      size = between(16, MAX_FILE);
      const content = Buffer.alloc(size);
      for (let i = 0; i < size; i += 4)
        content.writeUInt32LE(Math.floor(random() * 2 ** 32), Math.min(i, size - 4));
      content.write('%PDF-1.7\n', 0, 'latin1');
      sha256 = createHash('sha256').update(content).digest('hex');
      form.set('FileUpload', new Blob([content], { type: 'application/pdf' }), `${id}.pdf`);
    }
    const sent: Sent = { id, kind: 'due-diligence', sha256, size };
    try {
      const response = await fetch(`${base}/api/demo/due-diligence`, {
        method: 'POST',
        headers: { cookie },
        body: form,
        redirect: 'manual',
      });
      await response.arrayBuffer();
      return { status: response.status, sent };
    } catch {
      return { status: 'error', sent };
    }
  };

  const client = async () => {
    let cookie = await login();
    while (!stop) {
      if (!up) {
        await sleep(20);
        continue;
      }
      attempted += 1;
      const result = await submit(cookie);
      if (result.status === 201 || result.status === 303) {
        acknowledged.push(result.sent);
      } else if (result.status === 401) {
        cookie = await login();
      } else if (result.status === 'error') {
        failed += 1;
      } else {
        refused += 1;
        console.error(
          `crash-test: ${result.sent.kind} ${result.sent.id} answered ${result.status}`,
        );
      }
    }
  };

  emergencyStop = () => {
    stop = true;
    server?.kill('SIGKILL');
  };
  const started = Date.now();
  console.log(
    `crash-test: seed ${SEED}, ${KILLS} kills, ${CLIENTS} clients, attachments up to ${MAX_FILE} bytes, DATA_DIR ${dataDir}`,
  );
  await start();
  const clients = Array.from({ length: CLIENTS }, () => client());
  let previous = 0;
  for (let k = 1; k <= KILLS; k += 1) {
    await sleep(between(300, 2500));
    await kill();
    process.stdout.write(
      `  kill ${k}/${KILLS}: ${acknowledged.length} acknowledged so far (+${acknowledged.length - previous})\n`,
    );
    previous = acknowledged.length;
    await start();
  }
  await sleep(500);
  stop = true;
  await Promise.all(clients);
  await kill(); // the last stop is a kill too: nothing is flushed on the way out

  // Then one more start with no load, until the outbox is empty: a mail queued before a kill must still be
  // sent, once. Rows the killed instances had claimed are leased for five minutes; expiring those leases
  // here stands for that wait (the server's own code then picks them up, as it would five minutes later).
  const dbFile = path.join(dataDir, 'portal.sqlite');
  {
    const db = new Database(dbFile);
    db.prepare('update outbox set locked_until = null where sent_at is null').run();
    db.close();
  }
  await start();
  const unsentAfterDrain = await (async () => {
    const db = new Database(dbFile, { readonly: true });
    const unsent = db.prepare('select count(*) as n from outbox where sent_at is null');
    const deadline = Date.now() + 60_000;
    let n = (unsent.get() as { n: number }).n;
    while (n > 0 && Date.now() < deadline) {
      await sleep(250);
      n = (unsent.get() as { n: number }).n;
    }
    db.close();
    return n;
  })();
  // The sweep at start deletes the partial uploads of the killed processes (their writers are gone).
  const partialUploads = async () =>
    existsSync(path.join(dataDir, 'uploads'))
      ? (await readdir(path.join(dataDir, 'uploads'))).filter((f) => f.startsWith('tmp-')).length
      : 0;
  for (let waited = 0; waited < 10_000 && (await partialUploads()) > 0; waited += 100)
    await sleep(100);
  await kill();

  // Checks, on the files the killed server left behind.
  const problems: string[] = [];
  if (unsentAfterDrain > 0)
    problems.push(`${unsentAfterDrain} outbox rows still unsent a minute after the last restart`);
  const db = new Database(dbFile);
  const integrity = db.pragma('integrity_check', { simple: true });
  if (integrity !== 'ok') problems.push(`PRAGMA integrity_check: ${String(integrity)}`);
  const quote = db.prepare('select count(*) as n from quotes where contact_name = ?');
  const dd = db.prepare(
    'select attachment_path, attachment_sha256, attachment_size from due_diligence where project_name = ?',
  );
  for (const sent of acknowledged) {
    if (sent.kind === 'warranty') {
      const { n } = quote.get(sent.id) as { n: number };
      if (n !== 1) problems.push(`quote ${sent.id} acknowledged but stored ${n} times`);
      continue;
    }
    const rows = dd.all(sent.id) as {
      attachment_path: string | null;
      attachment_sha256: string | null;
      attachment_size: number | null;
    }[];
    if (rows.length !== 1) {
      problems.push(`due diligence ${sent.id} acknowledged but stored ${rows.length} times`);
      continue;
    }
    const row = rows[0];
    if (row === undefined) continue;
    if ((sent.sha256 === null) !== (row.attachment_path === null)) {
      problems.push(
        `due diligence ${sent.id}: attachment sent ${sent.sha256 !== null}, stored ${row.attachment_path !== null}`,
      );
    } else if (
      sent.sha256 !== null &&
      (row.attachment_sha256 !== sent.sha256 || row.attachment_size !== sent.size)
    ) {
      problems.push(`due diligence ${sent.id}: stored checksum/size differ from what was sent`);
    }
  }
  const uploadsDir = path.join(dataDir, 'uploads');
  const referenced = db
    .prepare(
      'select project_name, attachment_path, attachment_sha256 from due_diligence where attachment_path is not null',
    )
    .all() as { project_name: string; attachment_path: string; attachment_sha256: string }[];
  for (const row of referenced) {
    if (!/^[0-9a-f-]{36}\.[a-z]+$/.test(row.attachment_path)) {
      problems.push(
        `${row.project_name} points at a temporary or odd file name: ${row.attachment_path}`,
      );
      continue;
    }
    const file = path.join(uploadsDir, row.attachment_path);
    if (!existsSync(file)) {
      problems.push(`${row.project_name}: ${row.attachment_path} is missing`);
      continue;
    }
    const digest = createHash('sha256')
      .update(await readFile(file))
      .digest('hex');
    if (digest !== row.attachment_sha256)
      problems.push(`${row.project_name}: ${row.attachment_path} does not match its SHA-256`);
  }
  const counts = db
    .prepare(
      'select (select count(*) from quotes) as quotes, (select count(*) from due_diligence) as dd',
    )
    .get() as { quotes: number; dd: number };
  // The demo client's login is open (no login mails) and no form service is set (no forwards): every
  // outbox row is the team mail of one stored submission, written in the same unit.
  const { mails } = db
    .prepare("select count(*) as mails from outbox where kind = 'mail'")
    .get() as { mails: number };
  if (mails !== counts.quotes + counts.dd) {
    problems.push(
      `${mails} team mails queued for ${counts.quotes + counts.dd} stored submissions (one each expected)`,
    );
  }
  // The outbox folder holds each mail once: files are named by their row (`<queued at>-<row id>.eml`), so a row
  // written again after a kill (delivered, not yet marked sent) replaces its own file. Every sent row has its
  // file; every file belongs to a row; no row has two.
  const outboxRows = db.prepare("select id, sent_at from outbox where kind = 'mail'").all() as {
    id: string;
    sent_at: string | null;
  }[];
  const outboxDir = path.join(dataDir, 'outbox');
  const mailFiles = existsSync(outboxDir)
    ? (await readdir(outboxDir)).filter((f) => f.endsWith('.eml'))
    : [];
  const filesByRow = new Map<string, number>();
  for (const file of mailFiles) {
    const row = outboxRows.find((r) => file.endsWith(`-${r.id}.eml`));
    if (row === undefined) problems.push(`outbox file ${file} belongs to no outbox row`);
    else filesByRow.set(row.id, (filesByRow.get(row.id) ?? 0) + 1);
  }
  // Every due diligence mail carries its request's file, byte for byte (the mail is what the team opens).
  const ddMail = db.prepare(
    "select o.id as id, d.attachment_sha256 as sha256, d.reference as reference from due_diligence d join clients c on c.id = d.client_id join outbox o on o.kind = 'mail' and o.payload like '%' || d.reference || ' from %(' || c.prefix || ')%' where d.attachment_path is not null",
  );
  let attachmentsChecked = 0;
  for (const row of ddMail.all() as { id: string; sha256: string; reference: string }[]) {
    const file = mailFiles.find((f) => f.endsWith(`-${row.id}.eml`));
    if (file === undefined) continue; // reported above when the row is sent
    const digests = attachmentDigests(await readFile(path.join(outboxDir, file), 'latin1'));
    attachmentsChecked += 1;
    if (digests.length !== 1 || digests[0] !== row.sha256)
      problems.push(
        `${row.reference}: the mail's attachment does not match the stored file's SHA-256`,
      );
  }
  const duplicateMails = [...filesByRow.values()].filter((n) => n > 1).length;
  if (duplicateMails > 0)
    problems.push(`${duplicateMails} mails written to the outbox folder twice`);
  const sentWithoutFile = outboxRows.filter((r) => r.sent_at !== null && !filesByRow.has(r.id));
  if (sentWithoutFile.length > 0)
    problems.push(`${sentWithoutFile.length} mails marked sent with no file in the outbox folder`);
  const counters = new Map(
    (
      db.prepare('select client_id, kind, year, value from sequences').all() as {
        client_id: string;
        kind: string;
        year: number;
        value: number;
      }[]
    ).map((r) => [`${r.client_id} ${r.kind}-${r.year}`, r.value]),
  );
  // Each client's references of a kind and year run 1…n on their own.
  const byCounter = new Map<string, number[]>();
  for (const { client_id, reference } of db
    .prepare(
      'select client_id, reference from quotes union all select client_id, reference from due_diligence',
    )
    .all() as { client_id: string; reference: string }[]) {
    const match = /^([A-Z]+-\d{4})-(\d{6})$/.exec(reference);
    if (match === null) {
      problems.push(`odd reference ${reference}`);
      continue;
    }
    const [, kindYear = '', number = ''] = match;
    const counter = `${client_id} ${kindYear}`;
    byCounter.set(counter, [...(byCounter.get(counter) ?? []), Number(number)]);
  }
  for (const [counter, numbers] of byCounter) {
    numbers.sort((a, b) => a - b);
    const gapless = numbers.every((n, i) => n === i + 1);
    if (!gapless || counters.get(counter) !== numbers.length) {
      problems.push(
        `${counter}: ${numbers.length} references, counter at ${counters.get(counter) ?? 'none'}, ` +
          (gapless ? 'numbered 1…n' : 'with gaps or repeats'),
      );
    }
  }
  db.close();
  const onDisk = existsSync(uploadsDir) ? await readdir(uploadsDir) : [];
  const referencedNames = new Set(referenced.map((r) => r.attachment_path));
  const leftoverTemp = onDisk.filter((f) => f.startsWith('tmp-')).length;
  if (leftoverTemp > 0)
    problems.push(
      `${leftoverTemp} partial uploads (tmp-*) of killed processes left after the last restart`,
    );
  const orphans = onDisk.filter((f) => !f.startsWith('tmp-') && !referencedNames.has(f)).length;

  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const summary = {
    seed: SEED,
    kills: KILLS,
    clients: CLIENTS,
    maxFileBytes: MAX_FILE,
    seconds: Number(seconds),
    attempted,
    acknowledged: acknowledged.length,
    acknowledgedWithFile: acknowledged.filter((s) => s.sha256 !== null).length,
    connectionErrors: failed,
    refused,
    storedQuotes: counts.quotes,
    storedDueDiligence: counts.dd,
    teamMailsQueued: mails,
    mailFilesWritten: mailFiles.length,
    unsentAfterDrain,
    mailAttachmentsChecked: attachmentsChecked,
    filesChecked: referenced.length,
    leftoverTempFiles: leftoverTemp,
    unreferencedStoredFiles: orphans,
    integrity: String(integrity),
    problems: problems.length,
  };
  console.log(JSON.stringify(summary, null, 2));
  if (refused > 0) problems.push(`${refused} submissions were refused with an unexpected status`);
  if (!values.keep) await rm(dataDir, { recursive: true, force: true });
  else console.log(`kept ${dataDir}`);
  if (problems.length > 0) {
    console.error(
      `crash-test: FAILED\n${problems
        .slice(0, 50)
        .map((p) => `  - ${p}`)
        .join('\n')}`,
    );
    return 1;
  }
  console.log(
    `crash-test: ok — ${acknowledged.length} acknowledged submissions all stored once, each with its mail (${mailFiles.length} written, none twice, none left unsent after a last restart, ${attachmentsChecked} carrying the request's file intact) and a gapless reference, ${referenced.length} files match their SHA-256, integrity ok, in ${seconds} s`,
  );
  return 0;
}

/** The SHA-256 of each base64 attachment in a MIME message (as nodemailer writes it: one level of parts). */
function attachmentDigests(message: string): string[] {
  const boundary = /boundary="?([^"\r\n;]+)"?/i.exec(message)?.[1];
  if (boundary === undefined) return [];
  const digests: string[] = [];
  for (const part of message.split(`--${boundary}`)) {
    const split = part.indexOf('\r\n\r\n');
    if (split === -1) continue;
    const headers = part.slice(0, split);
    if (!/content-disposition:\s*attachment/i.test(headers)) continue;
    if (!/content-transfer-encoding:\s*base64/i.test(headers)) continue;
    const content = Buffer.from(part.slice(split + 4).replace(/\s+/g, ''), 'base64');
    digests.push(createHash('sha256').update(content).digest('hex'));
  }
  return digests;
}

const code = await main().catch((error: unknown) => {
  console.error(error);
  emergencyStop();
  return 1;
});
process.exit(code);
