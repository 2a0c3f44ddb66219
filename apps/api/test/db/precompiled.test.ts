import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connect.js';
import { precompiled, runningDirectly } from '../../src/db/precompiled.js';
import { createPgSchema, databases } from '../helper.js';

describe.each(databases)('precompiled ($name)', (target) => {
  let db: Db;
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'firm-precompiled-'));
    db = await openDatabase({
      databaseUrl: target.url,
      databaseSchema: target.url === null ? null : (await createPgSchema(target.url)).schema,
      dataDir: dir,
      databasePoolSize: 2,
    });
  });
  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should build once and run with each call’s values, fixed values kept, in and out of transactions', async () => {
    let builds = 0;
    const insert = precompiled<'kind' | 'year'>(['kind', 'year'], (k, slot) => {
      builds += 1;
      return k
        .insertInto('sequences')
        .values({ client_id: 'c', kind: slot('kind'), year: slot('year'), value: 7 });
    });
    const read = precompiled<'kind', { year: number; value: number }>(['kind'], (k, slot) =>
      k
        .selectFrom('sequences')
        .select(['year', 'value'])
        .where('kind', '=', slot('kind'))
        .orderBy('year'),
    );
    await insert(db.kysely, { kind: 'A', year: 2026 });
    await db.kysely.transaction().execute(async (trx) => {
      await insert(trx, { kind: 'A', year: 2027 });
      await insert(trx, { kind: 'B', year: 2026 });
    });
    await db.write((trx) => insert(trx, { kind: 'A', year: 2028 }));
    expect(builds).toBe(1);
    expect((await read(db.kysely, { kind: 'A' })).rows).toEqual([
      { year: 2026, value: 7 },
      { year: 2027, value: 7 },
      { year: 2028, value: 7 },
    ]);
    expect((await read(db.kysely, { kind: 'B' })).rows).toEqual([{ year: 2026, value: 7 }]);
  });

  it('should run on a transaction’s own runner only while runningDirectly’s work runs', async () => {
    const insert = precompiled<'kind'>(['kind'], (k, slot) =>
      k
        .insertInto('sequences')
        .values({ client_id: 'c', kind: slot('kind'), year: 2026, value: 1 }),
    );
    const direct: unknown[][] = [];
    await db.kysely.transaction().execute(async (trx) => {
      await runningDirectly(
        trx,
        async (query) => {
          direct.push([...query.parameters]);
          return { rows: [] };
        },
        () => insert(trx, { kind: 'direct' }),
      );
      // The work is over: the transaction's statements go through Kysely again.
      await insert(trx, { kind: 'kysely' });
    });
    // Nor does any other use of the database.
    await insert(db.kysely, { kind: 'outside' });
    expect(direct).toEqual([['c', 'direct', 2026, 1]]);
    const kinds = await db.kysely.selectFrom('sequences').select('kind').orderBy('kind').execute();
    expect(kinds.map((row) => row.kind)).toEqual(['kysely', 'outside']);
  });

  it('should bind a value used twice in both places, and refuse a query without one of its slots', async () => {
    const both = precompiled<'n'>(['n'], (k, slot) =>
      k
        .insertInto('sequences')
        .values({ client_id: 'c', kind: 'twice', year: slot('n'), value: slot('n') }),
    );
    await both(db.kysely, { n: 5 });
    expect(
      await db.kysely.selectFrom('sequences').selectAll().where('kind', '=', 'twice').execute(),
    ).toEqual([{ client_id: 'c', kind: 'twice', year: 5, value: 5 }]);

    const unused = precompiled<'kind' | 'forgotten'>(['kind', 'forgotten'], (k, slot) =>
      k.selectFrom('sequences').selectAll().where('kind', '=', slot('kind')),
    );
    await expect(unused(db.kysely, { kind: 'x', forgotten: 1 })).rejects.toThrow(
      'no parameter for forgotten',
    );
  });
});
