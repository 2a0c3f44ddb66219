import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connect.js';
import { migrateToLatest, migrations } from '../../src/db/migrations.js';
import type { Database as Schema } from '../../src/db/schema.js';
import { searchFold } from '../../src/db/search-text.js';
import { nextReference } from '../../src/repositories/references.js';
import { StorageError } from '../../src/storage-error.js';
import { createPgSchema, databases, type DatabaseTarget } from '../helper.js';

describe('migrations', () => {
  let db: Kysely<Schema> | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it('should fill the search text of items imported before the column existed', async () => {
    db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    const { error } = await migrator.migrateTo('2026-11-21-002-content-version');
    expect(error).toBeUndefined();
    await sql`insert into clients (id, prefix, name, branding, login_policy, created_at)
      values ('c1', 'demo', 'Demo', '{}', 'open', '2026-01-01T00:00:00.000Z')`.execute(db);
    await sql`insert into content_items (id, client_id, type, slug, title, summary, body_text, html, pro_tip,
        sort_order, related, updated_at)
      values ('i1', 'c1', 'topic', 'école', 'ÉCOLE Quay', 'A Summary', 'Body words. Tip words.',
        '<p>Body words.</p>', '<p><strong>Tip</strong> words.</p>', 1, '[]', '2026-01-01T00:00:00.000Z')`.execute(
      db,
    );
    await migrateToLatest(db as unknown as Kysely<unknown>, null);
    const row = await db
      .selectFrom('content_items')
      .select('search_text')
      .executeTakeFirstOrThrow();
    expect(row.search_text).toBe('école quay\na summary\nbody words. tip words.');
    expect(row.search_text).toBe(searchFold('ÉCOLE Quay\nA Summary\nBody words. Tip words.'));
    expect(row.search_text).not.toContain('strong');
  });
});

// Found by the twenty-fifth session's PostgreSQL probe: "Database migration  failed: X", two spaces where the
// migration's name goes, and the cause's message in the error's own, which the log then said twice.
describe('a failing migration', () => {
  const failure = async (setUp: string): Promise<Error> => {
    const db = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: new Database(':memory:') }),
    });
    try {
      await sql.raw(setUp).execute(db);
      return await migrateToLatest(db, null).then(
        () => new Error('migrated'),
        (error: unknown) => error as Error,
      );
    } finally {
      await db.destroy();
    }
  };

  it('should be named, with what went wrong as its cause', async () => {
    const error = await failure('create table clients (id text)');
    expect(error.message).toBe(`Database migration ${Object.keys(migrations)[0] ?? ''} failed`);
    expect((error.cause as Error).message).toBe('table "clients" already exists');
  });

  it('should say so in plain words when it fails before any migration runs', async () => {
    const error = await failure('create table kysely_migration (id text)');
    expect(error.message).toBe('Database migration failed');
    expect((error.cause as Error).message).toMatch(/^no such column: /);
  });
});

/** A database of this kind, migrated up to (and with) `last` only, as it stood before later migrations. */
async function migratedTo(
  target: DatabaseTarget,
  last: string,
): Promise<{ db: Kysely<Schema>; schema: string | null }> {
  let db: Kysely<Schema>;
  let schema: string | null = null;
  if (target.url === null) {
    const sqlite = new Database(':memory:');
    sqlite.pragma('foreign_keys = ON');
    db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: sqlite }) });
  } else {
    ({ schema } = await createPgSchema(target.url));
    db = new Kysely<Schema>({
      dialect: new PostgresDialect({
        pool: new pg.Pool({
          connectionString: target.url,
          max: 2,
          options: `-c search_path=${schema}`,
        }),
      }),
    });
  }
  const migrator = new Migrator({
    db,
    provider: { getMigrations: () => Promise.resolve(migrations) },
    ...(schema === null ? {} : { migrationTableSchema: schema }),
  });
  const { error } = await migrator.migrateTo(last);
  expect(error).toBeUndefined();
  return { db, schema };
}

describe.each(databases)(
  'references per client, migrated from global counters ($name)',
  (target) => {
    let db: Kysely<Schema> | undefined;
    let schema: string | null = null;
    afterEach(async () => {
      await db?.destroy();
      db = undefined;
    });
    const latest = (migrated: Kysely<Schema>) =>
      migrateToLatest(migrated as unknown as Kysely<unknown>, schema);
    const NOW = new Date('2026-05-04T10:00:00.000Z');
    const AT = '2026-03-01T09:00:00.000Z';

    /** The old schema with what the global counters made: clients a and b's numbers interleaved. */
    async function oldDatabase(): Promise<Kysely<Schema>> {
      let old: Kysely<Schema>;
      ({ db: old, schema } = await migratedTo(
        target,
        '2026-11-22-005-due-diligence-idempotency-key',
      ));
      for (const id of ['a', 'b']) {
        await sql`insert into clients (id, prefix, name, branding, login_policy, created_at)
        values (${id}, ${`client-${id}`}, ${`Client ${id}`}, '{}', 'open', ${AT})`.execute(old);
        await sql`insert into users (id, client_id, email, first_name, last_name, phone, verified, created_at)
        values (${`u${id}`}, ${id}, 'ada@example.com', 'Ada', 'L', '020', 0, ${AT})`.execute(old);
      }
      const quote = (id: string, client: string, reference: string, key: string | null = null) =>
        sql`insert into quotes (id, reference, kind, client_id, user_id, input, quote, rate_table_version,
          contact_name, contact_phone, contact_email, created_at, idempotency_key)
        values (${id}, ${reference}, 'warranty', ${client}, ${`u${client}`}, '{}', '{}', 'v1', 'Ada', '020',
          'ada@example.com', ${AT}, ${key})`.execute(old);
      // BW-2026: a holds 1, 3, 4 and b holds 2, 5; the counter is at 6 (the sixth was rolled back).
      await quote('q1', 'a', 'BW-2026-000001', 'key-1');
      await quote('q2', 'b', 'BW-2026-000002');
      await quote('q3', 'a', 'BW-2026-000003');
      await quote('q4', 'a', 'BW-2026-000004');
      await quote('q5', 'b', 'BW-2026-000005');
      // Another year, and a counter nobody holds a reference of.
      await quote('q6', 'b', 'BTR-2025-000007');
      await sql`insert into due_diligence (id, reference, client_id, user_id, project_name, project_address,
        city_postcode, project_description, build_cost, gdv, loan_amount, email, full_name, created_at)
      values ('d1', 'DD-2026-000001', 'a', 'ua', 'Quay', '1 Quay St', 'E1', 'Flats', '1', '2', '3',
        'ada@example.com', 'Ada L', ${AT})`.execute(old);
      await sql`insert into sequences (kind, year, value)
      values ('BW', 2026, 6), ('BTR', 2025, 7), ('DD', 2026, 1), ('CAR', 2026, 2)`.execute(old);
      return old;
    }

    it('should carry each client on from the highest reference it holds, never repeating one', async () => {
      db = await oldDatabase();
      await latest(db);
      const counters = await db
        .selectFrom('sequences')
        .selectAll()
        .orderBy('client_id')
        .orderBy('kind')
        .execute();
      expect(counters).toEqual([
        { client_id: 'a', kind: 'BW', year: 2026, value: 4 },
        { client_id: 'a', kind: 'DD', year: 2026, value: 1 },
        { client_id: 'b', kind: 'BTR', year: 2025, value: 7 },
        { client_id: 'b', kind: 'BW', year: 2026, value: 5 },
      ]);
      const next = (client: string, kind: string, at = NOW) =>
        db!.transaction().execute((trx) => nextReference(trx, client, kind, at));
      expect(await next('a', 'BW')).toBe('BW-2026-000005');
      expect(await next('b', 'BW')).toBe('BW-2026-000006');
      expect(await next('a', 'BW')).toBe('BW-2026-000006');
      expect(await next('a', 'DD')).toBe('DD-2026-000002');
      expect(await next('b', 'DD')).toBe('DD-2026-000001');
      expect(await next('a', 'CAR')).toBe('CAR-2026-000001');
      expect(await next('b', 'BTR', new Date('2025-12-31T23:00:00.000Z'))).toBe('BTR-2025-000008');

      // The rows are all there, with their indexes: the user's idempotency key is still unique.
      expect(
        await db.selectFrom('quotes').select(['id', 'reference']).orderBy('id').execute(),
      ).toEqual([
        { id: 'q1', reference: 'BW-2026-000001' },
        { id: 'q2', reference: 'BW-2026-000002' },
        { id: 'q3', reference: 'BW-2026-000003' },
        { id: 'q4', reference: 'BW-2026-000004' },
        { id: 'q5', reference: 'BW-2026-000005' },
        { id: 'q6', reference: 'BTR-2025-000007' },
      ]);
      expect(
        await db.selectFrom('due_diligence').select(['id', 'reference', 'project_name']).execute(),
      ).toEqual([{ id: 'd1', reference: 'DD-2026-000001', project_name: 'Quay' }]);
      await expect(insertQuoteRow(db, 'q7', 'a', 'BW-2026-000099', 'key-1')).rejects.toMatchObject({
        code: target.name === 'sqlite' ? 'SQLITE_CONSTRAINT_UNIQUE' : '23505',
      });
    });

    it('should let two clients hold the same reference, and one client only once', async () => {
      db = await oldDatabase();
      await latest(db);
      const unique = { code: target.name === 'sqlite' ? 'SQLITE_CONSTRAINT_UNIQUE' : '23505' };
      // b's BW-2026-000002 for a too; a's own BW-2026-000001 again is refused.
      await insertQuoteRow(db, 'q7', 'a', 'BW-2026-000002');
      await expect(insertQuoteRow(db, 'q8', 'a', 'BW-2026-000001')).rejects.toMatchObject(unique);
      await insertDueDiligenceRow(db, 'd2', 'b', 'DD-2026-000001');
      await expect(insertDueDiligenceRow(db, 'd3', 'a', 'DD-2026-000001')).rejects.toMatchObject(
        unique,
      );
      // A client that does not exist still cannot hold a quote.
      await expect(insertQuoteRow(db, 'q9', 'nobody', 'BW-2026-000001')).rejects.toThrow();
    });
  },
);

const insertQuoteRow = (
  db: Kysely<Schema>,
  id: string,
  client: string,
  reference: string,
  key: string | null = null,
) =>
  db
    .insertInto('quotes')
    .values({
      id,
      reference,
      kind: 'warranty',
      client_id: client,
      user_id: `u${client}`,
      input: '{}',
      quote: '{}',
      rate_table_version: 'v1',
      contact_name: 'Ada',
      contact_phone: '020',
      contact_email: 'ada@example.com',
      created_at: '2026-05-04T10:00:00.000Z',
      idempotency_key: key,
    })
    .execute();

const insertDueDiligenceRow = (db: Kysely<Schema>, id: string, client: string, reference: string) =>
  db
    .insertInto('due_diligence')
    .values({
      id,
      reference,
      client_id: client,
      user_id: `u${client}`,
      project_name: 'Wharf',
      project_address: '2 Wharf Rd',
      city_postcode: 'E2',
      project_description: 'Offices',
      build_cost: '1',
      gdv: '2',
      loan_amount: '3',
      email: 'ada@example.com',
      full_name: 'Ada L',
      attachment_path: null,
      attachment_name: null,
      attachment_size: null,
      attachment_sha256: null,
      attachment_mime: null,
      created_at: '2026-05-04T10:00:00.000Z',
      idempotency_key: null,
    })
    .execute();

describe('migrations while another process holds the SQLite write lock', () => {
  const dirs: string[] = [];
  const opened: Db[] = [];
  const holders: Database.Database[] = [];
  afterEach(async () => {
    for (const holder of holders.splice(0)) if (holder.open) holder.close();
    for (const db of opened.splice(0)) await db.close();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const migrationNames = Object.keys(migrations);

  /** A migrated database under a new DATA_DIR, and a second connection holding its write lock. */
  async function lockedDatabase(): Promise<{ dataDir: string; holder: Database.Database }> {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'firm-lock-'));
    dirs.push(dataDir);
    await (await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null })).close();
    const holder = new Database(path.join(dataDir, 'portal.sqlite'));
    holders.push(holder);
    holder.exec('begin immediate');
    holder.exec("update clients set name = name where prefix = ''");
    return { dataDir, holder };
  }

  it('should wait for the lock, say so once, and start when it is let go', async () => {
    const { dataDir, holder } = await lockedDatabase();
    const waits: number[] = [];
    setTimeout(() => holder.exec('commit'), 400);
    const db = await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null }, undefined, {
      lockWaitMs: 10_000,
      onLockWait: (ms) => waits.push(ms),
    });
    opened.push(db);
    // Said once, though both the dialect's statements and the migrations' transaction met the lock.
    expect(waits).toEqual([10_000]);
    const { rows } = await sql<{
      n: number;
    }>`select count(*) as n from kysely_migration`.execute(db.kysely);
    expect(rows[0]?.n).toBe(migrationNames.length);
  });

  it('should end the wait with one plain StorageError naming the cause', async () => {
    const { dataDir } = await lockedDatabase();
    const started = Date.now();
    const error: unknown = await openDatabase(
      { dataDir, databaseUrl: null, databaseSchema: null },
      undefined,
      { lockWaitMs: 300 },
    ).catch((e: unknown) => e);
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as Error).message).toMatch(
      /^The database is locked by another process \(a server or the staff tool using the same DATA_DIR\), which held it for \d+ s\. Try again once it has finished\.$/,
    );
    // The first try's statements wait BUSY_WAIT_MS (5 s) in the dialect before the migrations see the lock.
    expect(Number(/for (\d+) s/.exec((error as Error).message)?.[1])).toBe(
      Math.round((Date.now() - started) / 1000),
    );
  }, 15_000);

  it('should wait as long as busyWaitMs for a lock taken once open (the staff tool), past the 5 s default', async () => {
    const { dataDir, holder } = await lockedDatabase();
    holder.exec('commit');
    const waits: number[] = [];
    const staff = await openDatabase(
      { dataDir, databaseUrl: null, databaseSchema: null },
      undefined,
      {
        busyWaitMs: 15_000,
        onLockWait: (ms) => waits.push(ms),
      },
    );
    opened.push(staff);
    const server = await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null });
    opened.push(server);
    const touch = (db: Db) =>
      db.write((trx) => sql`update clients set name = name where prefix = ''`.execute(trx));
    holder.exec('begin immediate');
    const released = new Promise<void>((resolve) =>
      setTimeout(() => {
        holder.exec('commit');
        resolve();
      }, 5_500),
    );
    const [staffWrite, serverWrite] = await Promise.allSettled([touch(staff), touch(server)]);
    await released;
    // The server's requests give up after 5 s (answered 503); the staff tool waited for the lock and wrote.
    expect(serverWrite).toMatchObject({ status: 'rejected', reason: { code: 'SQLITE_BUSY' } });
    expect(staffWrite.status).toBe('fulfilled');
    expect(waits).toEqual([15_000]);
  }, 20_000);

  it('should not wait when nothing holds the lock', async () => {
    const { dataDir, holder } = await lockedDatabase();
    holder.exec('commit');
    const waits: number[] = [];
    opened.push(
      await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null }, undefined, {
        onLockWait: (ms) => waits.push(ms),
      }),
    );
    expect(waits).toEqual([]);
  });
});
