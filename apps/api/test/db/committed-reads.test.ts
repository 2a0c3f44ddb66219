import { mkdtemp, rm } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CommittedReads,
  SharedCheck,
  committedReadsOf,
  type ChangeSource,
} from '../../src/db/committed-reads.js';
import { openDatabase, type Db } from '../../src/db/connect.js';
import { buildTestApp, listenLocally, loginOpen, type TestApp } from '../helper.js';

describe('CommittedReads on a SQLite file', () => {
  let dataDir: string;
  let db: Db;
  /** Another connection to the same file: another instance, or the staff tool. */
  let other: SqliteDatabase.Database;
  let cache: CommittedReads<number>;
  let year = 2000;
  const writeHere = () =>
    db.kysely
      .insertInto('sequences')
      .values({ client_id: 'c', kind: 'T', year: (year += 1), value: 1 })
      .execute();
  const writeElsewhere = () =>
    other
      .prepare("insert into sequences (client_id, kind, year, value) values ('c', ?, ?, 1)")
      .run('O', (year += 1));

  beforeAll(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'firm-committed-reads-'));
    db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir });
    other = new SqliteDatabase(path.join(dataDir, 'portal.sqlite'));
    other.pragma('busy_timeout = 5000');
    const found = committedReadsOf<number>(db.kysely as Kysely<unknown>, 'test');
    if (found === undefined) throw new Error('a SQLite database has committed reads');
    cache = found;
  });
  afterAll(async () => {
    other.close();
    await db.close();
    await rm(dataDir, { recursive: true, force: true });
  });

  /** Keeps `value` under `key` as a read taken now would. */
  const keep = (key: string, value: number) => cache.set(key, value, cache.mark());

  it('should answer what was kept for as long as nothing is written', async () => {
    keep('a', 1);
    expect(cache.get('a')).toBe(1);
    // Reads, here or on the other connection, change nothing.
    await db.kysely.selectFrom('sequences').selectAll().execute();
    other.prepare('select count(*) from sequences').get();
    expect(cache.get('a')).toBe(1);
    expect(committedReadsOf(db.kysely as Kysely<unknown>, 'test')).toBe(cache);
  });

  it('should forget everything at the first write of this process', async () => {
    keep('a', 1);
    keep('b', 2);
    await writeHere();
    expect(cache.get('a')).toBeUndefined();
    expect(cache.get('b')).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('should forget everything when another connection commits', () => {
    keep('a', 1);
    writeElsewhere();
    expect(cache.get('a')).toBeUndefined();
  });

  it('should not keep a read when something was written between its mark and its answer', async () => {
    const here = cache.mark();
    await writeHere();
    cache.set('a', 1, here);
    expect(cache.get('a')).toBeUndefined();
    const elsewhere = cache.mark();
    writeElsewhere();
    cache.set('a', 1, elsewhere);
    expect(cache.get('a')).toBeUndefined();
    cache.set('a', 1, undefined);
    expect(cache.get('a')).toBeUndefined();
  });

  it('should answer nothing while a transaction of this process is open, nor keep anything read then', async () => {
    keep('a', 1);
    let during: number | undefined = -1;
    await db.kysely.transaction().execute(async (trx) => {
      await trx.selectFrom('sequences').selectAll().execute();
      during = cache.get('a');
      // A transaction is not the database itself: it has no committed reads of its own.
      expect(committedReadsOf(trx as unknown as Kysely<unknown>, 'test')).toBeUndefined();
    });
    expect(during).toBeUndefined();
    // A write rolled back counts too: what was read before it may have been read inside it.
    keep('a', 1);
    await expect(
      db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('sequences')
          .values({ client_id: 'c', kind: 'R', year: (year += 1), value: 1 })
          .execute();
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(cache.get('a')).toBeUndefined();
  });

  it('should forget everything at a write that answers rows (insert … returning)', async () => {
    keep('a', 1);
    await db.kysely
      .insertInto('sequences')
      .values({ client_id: 'c', kind: 'N', year: (year += 1), value: 1 })
      .returning('value')
      .execute();
    expect(cache.get('a')).toBeUndefined();
  });

  describe('scoped to the tables its reads read', () => {
    let scoped: CommittedReads<number>;
    beforeAll(() => {
      const found = committedReadsOf<number>(db.kysely as Kysely<unknown>, 'scoped', ['sessions']);
      if (found === undefined) throw new Error('a SQLite database has committed reads');
      scoped = found;
    });
    const keepScoped = () => scoped.set('a', 1, scoped.mark());

    it('should keep its answers across this process’s writes to other tables, in transactions too', async () => {
      keepScoped();
      await writeHere();
      await db.kysely.transaction().execute(async (trx) => {
        await trx
          .insertInto('sequences')
          .values({ client_id: 'c', kind: 'S', year: (year += 1), value: 1 })
          .execute();
      });
      expect(scoped.get('a')).toBe(1);
    });

    it('should forget them at a write to one of its tables, even one that changes no row', async () => {
      keepScoped();
      await db.kysely.deleteFrom('sessions').where('id', '=', 'no such session').execute();
      expect(scoped.get('a')).toBeUndefined();
    });

    it('should forget them at a write whose table it cannot tell (raw SQL, DDL)', async () => {
      keepScoped();
      await sql`delete from sessions where 0`.execute(db.kysely);
      expect(scoped.get('a')).toBeUndefined();
      keepScoped();
      await sql`create table if not exists scratch (x integer)`.execute(db.kysely);
      expect(scoped.get('a')).toBeUndefined();
    });

    it('should forget them when another connection commits, whatever it wrote', () => {
      keepScoped();
      writeElsewhere();
      expect(scoped.get('a')).toBeUndefined();
    });
  });

  it('should hold at most its bound, starting afresh past it', () => {
    let dataVersion = 1;
    const source: ChangeSource = { dataVersion: () => dataVersion, localWrites: () => 0 };
    const small = new CommittedReads<number>(source, 3);
    for (let i = 0; i < 10; i += 1) {
      small.set(String(i), i, small.mark());
      expect(small.size).toBeLessThanOrEqual(3);
    }
    expect(small.get('9')).toBe(9);
    dataVersion = 2;
    expect(small.get('9')).toBeUndefined();
  });

  describe('reads sharing one check of other connections’ commits', () => {
    let dataVersion = 1;
    let asked = 0;
    const source: ChangeSource = {
      dataVersion: () => {
        asked += 1;
        return dataVersion;
      },
      localWrites: () => 0,
    };

    it('should ask the connection once for all the reads that share a check', () => {
      const reads = new CommittedReads<number>(source);
      const shared = new SharedCheck();
      asked = 0;
      reads.set('a', 1, reads.mark(shared), shared);
      for (let i = 0; i < 10; i += 1) expect(reads.get('a', shared)).toBe(1);
      expect(asked).toBe(1);
      // A read with no shared check asks for itself.
      expect(reads.get('a')).toBe(1);
      expect(asked).toBe(2);
    });

    it('should answer a read with an older shared check nothing kept since a newer commit, and the reverse', () => {
      const reads = new CommittedReads<number>(source);
      const before = new SharedCheck();
      expect(reads.get('a', before)).toBeUndefined(); // checks: version 1
      dataVersion += 1; // another connection commits
      reads.set('a', 2, reads.mark()); // read after the commit, kept under the new version
      expect(reads.get('a')).toBe(2);
      // The older check empties what was kept after it (it may not be what that check's reads would see) …
      expect(reads.get('a', before)).toBeUndefined();
      reads.set('a', 1, reads.mark(before), before);
      expect(reads.get('a', before)).toBe(1);
      // … and a read that checks for itself empties again what was kept under the older version.
      expect(reads.get('a')).toBeUndefined();
    });
  });

  it('should keep nothing when the connection cannot say its state', () => {
    const source: ChangeSource = {
      dataVersion: () => {
        throw new TypeError('This database connection is busy executing a query');
      },
      localWrites: () => 0,
    };
    const broken = new CommittedReads<number>(source);
    broken.set('a', 1, broken.mark());
    expect(broken.get('a')).toBeUndefined();
  });
});

/** The status of a GET sent on a connection of its own (closed after the answer). */
function statusOnNewConnection(url: string, cookie: string): Promise<number> {
  return new Promise((resolve, reject) => {
    httpGet(url, { agent: false, headers: { cookie } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    }).once('error', reject);
  });
}

describe('the client and session lookup kept between writes (SQLite)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
  });
  afterAll(async () => {
    await t.close();
  });

  it('should refuse a session at the very next request once another connection has ended it', async () => {
    const cookie = await loginOpen(t.app);
    const get = () =>
      t.app.inject({ method: 'GET', url: '/api/demo/content', headers: { cookie } });
    // Twice: the second answer comes from the kept lookup.
    expect((await get()).statusCode).toBe(200);
    expect((await get()).statusCode).toBe(200);
    // The staff tool (its own connection) ends every session of the client.
    const staff = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
    try {
      staff.pragma('busy_timeout = 5000');
      expect(staff.prepare('delete from sessions').run().changes).toBeGreaterThan(0);
    } finally {
      staff.close();
    }
    expect((await get()).statusCode).toBe(401);
  });

  it('should refuse a session ended elsewhere to every request sent after, over real connections', async () => {
    // Requests that arrive together share one check of other connections' commits (arrival-turn.ts); none
    // sent after the commit may be answered from before it, on a kept connection or a new one, alone or not.
    const port = await listenLocally(t.app);
    const url = `http://127.0.0.1:${port}/api/demo/content`;
    const staff = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
    staff.pragma('busy_timeout = 5000');
    try {
      for (let round = 0; round < 20; round += 1) {
        const cookie = await loginOpen(t.app);
        // Each on a connection of its own (so that all of them may share a check), then on kept connections.
        const burst = (kept: boolean) =>
          Promise.all(
            Array.from({ length: 8 }, () =>
              kept
                ? fetch(url, { headers: { cookie } }).then((r) => r.status)
                : statusOnNewConnection(url, cookie),
            ),
          );
        expect(await burst(false)).toEqual(Array(8).fill(200));
        expect(await burst(true)).toEqual(Array(8).fill(200));
        expect(staff.prepare('delete from sessions').run().changes).toBeGreaterThan(0);
        expect(await burst(false)).toEqual(Array(8).fill(401));
        expect(await burst(true)).toEqual(Array(8).fill(401));
      }
    } finally {
      staff.close();
    }
  });

  it('should refuse a logged-out cookie at once, and follow a change of the client made elsewhere', async () => {
    const cookie = await loginOpen(t.app);
    const client = () =>
      t.app.inject({ method: 'GET', url: '/api/demo', headers: { cookie } }).then((r) => r.json());
    expect(await client()).toMatchObject({ logged_in: true, name: 'Demo Developments' });
    const staff = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
    try {
      staff.pragma('busy_timeout = 5000');
      staff.prepare("update clients set name = 'Renamed Ltd' where prefix = 'demo'").run();
    } finally {
      staff.close();
    }
    expect(await client()).toMatchObject({ logged_in: true, name: 'Renamed Ltd' });
    const logout = await t.app.inject({
      method: 'GET',
      url: '/api/demo/logout',
      headers: { cookie },
    });
    expect(logout.statusCode).toBeLessThan(400);
    expect(await client()).toMatchObject({ logged_in: false });
  });
});
