import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connect.js';
import { GroupCommit, MAX_BATCH } from '../../src/db/group-commit.js';
import { precompiled } from '../../src/db/precompiled.js';
import type { Database } from '../../src/db/schema.js';
import { FairSqliteDialect } from '../../src/db/sqlite-dialect.js';
import { nextReference } from '../../src/repositories/references.js';
import { createPgSchema, databases, type DatabaseTarget } from '../helper.js';

const NOW = new Date('2026-03-02T09:00:00.000Z');
/** The client the references are numbered for (the counters name it; no client row is needed). */
const CLIENT = 'client-a';

/** What another connection sees: only committed rows. */
interface Observer {
  count(table: 'sequences' | 'commit_guard' | 'marks'): Promise<number>;
  hasMark(id: string): Promise<boolean>;
  close(): Promise<void>;
}

async function open(target: DatabaseTarget): Promise<{ db: Db; observer: Observer; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'firm-group-commit-'));
  if (target.url === null) {
    const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: dir });
    const other = new SqliteDatabase(path.join(dir, 'portal.sqlite'), { readonly: true });
    return {
      db,
      dir,
      observer: {
        count: async (table) =>
          (other.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n,
        hasMark: async (id) =>
          other.prepare('select 1 from marks where id = ?').get(id) !== undefined,
        close: async () => {
          other.close();
        },
      },
    };
  }
  const { schema } = await createPgSchema(target.url);
  const db = await openDatabase({
    databaseUrl: target.url,
    databaseSchema: schema,
    dataDir: dir,
    databasePoolSize: 3,
  });
  const other = new pg.Client({ connectionString: target.url });
  await other.connect();
  return {
    db,
    dir,
    observer: {
      count: async (table) =>
        Number(
          (await other.query<{ n: string }>(`select count(*) as n from "${schema}"."${table}"`))
            .rows[0]?.n,
        ),
      hasMark: async (id) =>
        (await other.query(`select 1 from "${schema}".marks where id = $1`, [id])).rowCount === 1,
      close: () => other.end(),
    },
  };
}

/**
 * A table whose rows must point at a `marks` row, checked only at COMMIT: a unit inserting an orphan
 * succeeds, and the commit holding it fails (a genuine failing commit, no mock).
 */
async function createTables(db: Db): Promise<void> {
  await sql`create table marks (id text primary key)`.execute(db.kysely);
  await sql`create table commit_guard (
    mark_id text not null references marks (id) deferrable initially deferred
  )`.execute(db.kysely);
}

type Trx = Parameters<Parameters<Db['write']>[0]>[0];

/** The ids of the `marks` rows stored, in order. */
async function storedMarks(db: Db): Promise<string[]> {
  const rows = await db.kysely
    .selectFrom(sql<{ id: string }>`marks`.as('m'))
    .select('id')
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
const mark = (trx: Trx, id: string) =>
  sql`insert into marks (id) values (${id})`.execute(trx).then(() => id);

describe.each(databases)('Db.write ($name)', (target) => {
  let db: Db;
  let observer: Observer;
  let dir: string;
  beforeEach(async () => {
    ({ db, observer, dir } = await open(target));
    await createTables(db);
  });
  afterEach(async () => {
    await observer.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should store concurrent units with distinct, consecutive references', async () => {
    const references = await Promise.all(
      Array.from({ length: 40 }, () => db.write((trx) => nextReference(trx, CLIENT, 'BW', NOW))),
    );
    expect([...references].sort()).toEqual(
      Array.from({ length: 40 }, (_, i) => `BW-2026-${String(i + 1).padStart(6, '0')}`),
    );
    // SQLite runs the units of a batch in submission order (PostgreSQL runs them concurrently).
    if (target.name === 'sqlite') expect(references).toEqual([...references].sort());
  });

  it('should number each client on its own: interleaved concurrent units leave no gaps in either', async () => {
    const clients = ['client-a', 'client-b', 'client-a', 'client-a', 'client-b'];
    const references = await Promise.all(
      Array.from({ length: 40 }, (_, i) => {
        const client = clients[i % clients.length] ?? CLIENT;
        return db
          .write((trx) => nextReference(trx, client, 'BW', NOW))
          .then((reference) => ({ client, reference }));
      }),
    );
    const of = (client: string) =>
      references
        .filter((r) => r.client === client)
        .map((r) => r.reference)
        .sort();
    const run = (n: number) =>
      Array.from({ length: n }, (_, i) => `BW-2026-${String(i + 1).padStart(6, '0')}`);
    expect(of('client-a')).toEqual(run(24));
    expect(of('client-b')).toEqual(run(16));
  });

  it('should fail only the unit that throws, undoing its statements, and go on with the others', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        db.write(async (trx) => {
          const reference = await nextReference(trx, CLIENT, 'BW', NOW);
          await mark(trx, `m${i}`);
          if (i === 2) await mark(trx, 'm0'); // duplicate primary key: this unit fails
          return reference;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    // Its reference was given back: the numbers stay gapless.
    expect(outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : [])).sort()).toEqual([
      'BW-2026-000001',
      'BW-2026-000002',
      'BW-2026-000003',
      'BW-2026-000004',
    ]);
    expect(await observer.count('marks')).toBe(4);
    expect(await storedMarks(db)).toEqual(['m0', 'm1', 'm3', 'm4']);
  });

  it('should settle a unit only once its commit is visible to another connection', async () => {
    const visible = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db.write((trx) => mark(trx, `m${i}`)).then((id) => observer.hasMark(id)),
      ),
    );
    expect(visible).toEqual(Array(10).fill(true));
  });

  it('should fail every unit of a commit that fails, storing none of them', async () => {
    const outcomes = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) =>
        db.write(async (trx) => {
          const reference = await nextReference(trx, CLIENT, 'BW', NOW);
          await mark(trx, `m${i}`);
          // The orphan passes its statement; the deferred foreign key fails the COMMIT.
          if (i === 3) await sql`insert into commit_guard (mark_id) values ('none')`.execute(trx);
          return reference;
        }),
      ),
    );
    if (target.name === 'sqlite') {
      // One shared commit: all six fail and nothing is stored.
      expect(outcomes.map((o) => o.status)).toEqual(Array(6).fill('rejected'));
      for (const o of outcomes) {
        expect(String((o as PromiseRejectedResult).reason)).toMatch(/FOREIGN KEY/);
      }
      expect(await observer.count('marks')).toBe(0);
      expect(await observer.count('sequences')).toBe(0);
    } else {
      // PostgreSQL: a transaction per unit, so only that one fails.
      expect(outcomes.map((o) => o.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'fulfilled',
        'rejected',
        'fulfilled',
        'fulfilled',
      ]);
      expect(await observer.count('marks')).toBe(5);
    }
    expect(await observer.count('commit_guard')).toBe(0);

    // The next units are committed normally.
    await expect(db.write((trx) => mark(trx, 'after'))).resolves.toBe('after');
    expect(await observer.count('marks')).toBe(target.name === 'sqlite' ? 1 : 6);
  });
});

describe('GroupCommit (SQLite)', () => {
  let db: Db;
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'firm-group-commit-'));
    db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: dir });
    await createTables(db);
  });
  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should gather the units submitted in one turn into one transaction', async () => {
    const group = new GroupCommit<Database>(db.kysely);
    await Promise.all(Array.from({ length: 50 }, (_, i) => group.submit((t) => mark(t, `m${i}`))));
    expect(group.stats).toEqual({ transactions: 1, units: 50 });
  });

  it('should gather units submitted while a commit is under way into the next transaction', async () => {
    const group = new GroupCommit<Database>(db.kysely);
    let later: Promise<string>[] = [];
    const first = group.submit(async (t) => {
      // Submitted while the first transaction runs: they wait for it and then go together.
      later = Array.from({ length: 10 }, (_, i) => group.submit((u) => mark(u, `later${i}`)));
      return mark(t, 'first');
    });
    await first;
    await Promise.all(later);
    expect(group.stats).toEqual({ transactions: 2, units: 11 });
  });

  it('should run a batch without savepoints, and again with them when a unit throws', async () => {
    const group = new GroupCommit<Database>(db.kysely);
    const runs = [0, 0, 0, 0, 0];
    const outcomes = await Promise.allSettled(
      runs.map((_, i) =>
        group.submit(async (t) => {
          runs[i] = (runs[i] ?? 0) + 1;
          await mark(t, `m${i}`);
          if (i === 2) await mark(t, 'm0'); // duplicate primary key: this unit fails
          return i;
        }),
      ),
    );
    expect(outcomes.map((o) => o.status)).toEqual([
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    // The first transaction stopped at the failing unit and was rolled back; the second ran them all, each in
    // its own savepoint. Every unit that succeeded is stored once.
    expect(runs).toEqual([2, 2, 2, 1, 1]);
    expect(group.stats).toEqual({ transactions: 2, units: 5 });
    expect(await storedMarks(db)).toEqual(['m0', 'm1', 'm3', 'm4']);
  });

  it('should run precompiled statements straight on the connection, undone with a unit that throws', async () => {
    const sqlite = new SqliteDatabase(path.join(dir, 'direct.sqlite'));
    const dialect = new FairSqliteDialect(sqlite);
    const k = new Kysely<Database>({ dialect });
    try {
      await sql`create table sequences (client_id text, kind text, year integer, value integer,
        primary key (client_id, kind, year))`.execute(k);
      const insert = precompiled<'kind'>(['kind'], (q, slot) =>
        q
          .insertInto('sequences')
          .values({ client_id: 'c', kind: slot('kind'), year: 2026, value: 1 }),
      );
      const direct: unknown[] = [];
      const group = new GroupCommit<Database>(k, (query) => {
        direct.push(query.parameters[1]);
        return dialect.runOnHeldConnection(query);
      });
      const outcomes = await Promise.allSettled(
        [0, 1, 2].map((i) =>
          group.submit(async (t) => {
            await insert(t, { kind: `k${i}` });
            if (i === 1) await insert(t, { kind: 'k0' }); // the same key again: this unit fails
          }),
        ),
      );
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      // Every run (twice up to the failing unit, the second time each unit in its savepoint) on the runner.
      expect(direct).toEqual(['k0', 'k1', 'k0', 'k0', 'k1', 'k0', 'k2']);
      const kinds = sqlite.prepare('select kind from sequences order by kind').pluck().all();
      expect(kinds).toEqual(['k0', 'k2']);
    } finally {
      await k.destroy();
    }
  });

  it(`should split a burst into transactions of at most ${MAX_BATCH} units`, async () => {
    const group = new GroupCommit<Database>(db.kysely);
    const n = MAX_BATCH * 2 + 1;
    await Promise.all(Array.from({ length: n }, (_, i) => group.submit((t) => mark(t, `m${i}`))));
    expect(group.stats).toEqual({ transactions: 3, units: n });
  });

  it('should fail the units of a batch when the transaction cannot start, and serve later ones', async () => {
    const group = new GroupCommit<Database>(db.kysely);
    // A transaction left open on the connection outside Kysely's transactions: the batch's BEGIN fails.
    await sql`begin`.execute(db.kysely);
    try {
      const outcomes = await Promise.allSettled(
        Array.from({ length: 3 }, (_, i) => group.submit((t) => mark(t, `m${i}`))),
      );
      expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
      expect(String((outcomes[0] as PromiseRejectedResult).reason)).toMatch(/within a transaction/);
    } finally {
      await sql`rollback`.execute(db.kysely);
    }
    await expect(group.submit((t) => mark(t, 'after'))).resolves.toBe('after');
  });

  it('should let drain wait for every submitted unit', async () => {
    const group = new GroupCommit<Database>(db.kysely);
    const settled: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      void group.submit((t) => mark(t, `m${i}`)).then((id) => settled.push(id));
    }
    await group.drain();
    // `then` callbacks run right after their promise settles, before drain's own continuation.
    expect(settled).toHaveLength(5);
  });
});
