import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { seedIfEmpty } from '../../src/services/seed.js';
import { FIXTURE_CONTENT, silentLogger } from '../helper.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const apiRoot = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);
/** tsx's loader, so the child runs the TypeScript sources as the tests do. */
const TSX_LOADER = pathToFileURL(require.resolve('tsx/esm')).href;
const src = (file: string) => pathToFileURL(path.join(apiRoot, 'src', file)).href;

/**
 * The first start's database work (migrations, then seeding the fixture clients) in a child process that
 * SIGKILLs itself just before the nth run of a statement matching KILL_AT: a kill at an exact point, with no
 * chance for a `finally` or a rollback in the process itself.
 */
const CHILD = `
import Database from ${JSON.stringify(pathToFileURL(require.resolve('better-sqlite3')).href)};
import { openDatabase } from ${JSON.stringify(src('db/connect.ts'))};
import { seedIfEmpty } from ${JSON.stringify(src('services/seed.ts'))};

const [dataDir, contentDir, killAt, nth] = process.argv.slice(2);
const pattern = new RegExp(killAt, 'i');
let seen = 0;
// Statements are prepared once and cached: count their runs, not their preparations.
const prepare = Database.prototype.prepare;
Database.prototype.prepare = function (source) {
  const statement = prepare.call(this, source);
  if (pattern.test(source)) {
    for (const method of ['run', 'all', 'get']) {
      const original = statement[method];
      statement[method] = function (...args) {
        if (++seen === Number(nth)) process.kill(process.pid, 'SIGKILL');
        return original.apply(this, args);
      };
    }
  }
  return statement;
};
const log = { info() {}, warn() {}, error() {}, debug() {} };
const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
await seedIfEmpty(db.kysely, contentDir, dataDir + '/media', new Date(), log);
await db.close();
console.log('finished without being killed');
`;

interface Seeded {
  migrations: string[];
  clients: string[];
  items: string[];
  videos: number;
  /** Every /media/ path the rows name, with whether the file is there and its bytes match its name. */
  media: string[];
}

/** What a start on `dataDir` ends with: migrations, clients, items, and the media the rows point at. */
async function startAndRead(dataDir: string): Promise<Seeded> {
  const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
  try {
    await seedIfEmpty(
      db.kysely,
      FIXTURE_CONTENT,
      path.join(dataDir, 'media'),
      new Date(),
      silentLogger,
    );
    const migrations = (
      await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        db.kysely,
      )
    ).rows.map((r) => r.name);
    const clients = await db.kysely
      .selectFrom('clients')
      .select(['prefix', 'branding'])
      .orderBy('prefix')
      .execute();
    const items = await db.kysely
      .selectFrom('content_items')
      .innerJoin('clients', 'clients.id', 'content_items.client_id')
      .select(['clients.prefix', 'type', 'slug', 'html', 'image_url'])
      .orderBy('clients.prefix')
      .orderBy('type')
      .orderBy('slug')
      .execute();
    const videos = await db.kysely.selectFrom('videos').selectAll().execute();
    const referenced = new Set<string>();
    for (const c of clients) {
      const logo = (JSON.parse(c.branding) as { logo_url?: string | null }).logo_url;
      if (logo) referenced.add(logo);
    }
    for (const i of items) {
      if (i.image_url !== null) referenced.add(i.image_url);
      for (const [m] of i.html.matchAll(/\/media\/[a-z0-9-]+\/[a-f0-9]{20}\.[a-z0-9]+/g))
        referenced.add(m);
    }
    for (const v of videos) for (const u of [v.src, v.poster, v.captions]) if (u) referenced.add(u);
    const media: string[] = [];
    for (const url of [...referenced].sort()) {
      const bytes = await readFile(path.join(dataDir, url)).catch(() => undefined);
      const name = path.basename(url).split('.')[0] ?? '';
      const state =
        bytes === undefined
          ? 'missing'
          : createHash('sha256').update(bytes).digest('hex').startsWith(name)
            ? 'ok'
            : 'mismatch';
      media.push(`${url} ${state}`);
    }
    return {
      migrations,
      clients: clients.map((c) => c.prefix),
      items: items.map((i) => `${i.prefix}/${i.type}/${i.slug}`),
      videos: videos.length,
      media,
    };
  } finally {
    await db.close();
  }
}

/** Runs the child until it kills itself at the `nth` statement matching `killAt`. */
function killedAt(dataDir: string, killAt: string, nth = 1): Promise<string> {
  return new Promise((resolve, reject) => {
    const script = path.join(dataDir, '..', 'child.mts');
    const args = [script, dataDir, FIXTURE_CONTENT, killAt, String(nth)];
    const child = spawn(process.execPath, ['--import', TSX_LOADER, ...args], {
      cwd: apiRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(signal ?? `exit ${code}: ${output.trim()}`));
  });
}

describe('SIGKILL during the first start (migrations and seeding)', () => {
  let scratch: string;
  let reference: Seeded;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-kill-start-'));
    await writeFile(path.join(scratch, 'child.mts'), CHILD);
    reference = await startAndRead(await mkdtemp(path.join(scratch, 'clean-')));
  });
  afterAll(async () => {
    await rm(scratch, { recursive: true, force: true });
  });

  it('should seed the fixture clients once, with their media, on a clean first start', () => {
    expect(reference.clients).toEqual(['demo', 'northbank']);
    expect(reference.migrations.length).toBeGreaterThanOrEqual(3);
    expect(reference.items.length).toBeGreaterThan(5);
    expect(reference.media.length).toBeGreaterThan(0);
    expect(reference.media.every((m) => m.endsWith(' ok'))).toBe(true);
  });

  it('should seed once when two first starts run at the same moment', async () => {
    const dataDir = await mkdtemp(path.join(scratch, 'twice-'));
    const [a, b] = await Promise.all([
      openDatabase({ databaseUrl: null, databaseSchema: null, dataDir }),
      openDatabase({ databaseUrl: null, databaseSchema: null, dataDir }),
    ]);
    try {
      const seeded = await Promise.all(
        [a, b].map((db) =>
          seedIfEmpty(
            db.kysely,
            FIXTURE_CONTENT,
            path.join(dataDir, 'media'),
            new Date(),
            silentLogger,
          ),
        ),
      );
      expect(seeded.map((prefixes) => prefixes.join(',')).sort()).toEqual(['', 'demo,northbank']);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
    expect(await startAndRead(dataDir)).toEqual(reference);
  });

  // Each point is a statement the first start runs; the kill lands just before it.
  it.each([
    ['in the middle of the first migration', '^create table "outbox"', 1],
    ['in the middle of a later migration', '^insert into "kysely_migration"', 3],
    [
      'between creating the first client and writing its content',
      '^insert into "content_items"',
      1,
    ],
    ['between the first client and the second', '^insert into "clients"', 2],
    ['while the last client is imported', '^update "clients" set "content_version"', 2],
  ])(
    'should end with the full seed after a kill %s',
    async (_, killAt, nth) => {
      const dataDir = await mkdtemp(path.join(scratch, 'killed-'));
      expect(await killedAt(dataDir, killAt, nth)).toBe('SIGKILL');
      const after = await startAndRead(dataDir);
      expect(after).toEqual(reference);
      // No half-copied media left behind either.
      for (const prefix of await readdir(path.join(dataDir, 'media')).catch(() => [])) {
        const names = await readdir(path.join(dataDir, 'media', prefix));
        expect(names.filter((n) => !/^[a-f0-9]{20}\.[a-z0-9]+$/.test(n))).toEqual([]);
      }
    },
    40_000,
  );
});
