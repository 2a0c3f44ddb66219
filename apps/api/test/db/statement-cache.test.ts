import SqliteDatabase from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/db/statement-cache.js';

describe('withStatementCache', () => {
  let raw: SqliteDatabase.Database;
  let prepared: string[];

  beforeEach(() => {
    raw = new SqliteDatabase(':memory:');
    raw.exec('create table t (n integer)');
    prepared = [];
    const prepare = raw.prepare.bind(raw);
    raw.prepare = ((sql: string) => {
      prepared.push(sql);
      return prepare(sql);
    }) as typeof raw.prepare;
  });
  afterEach(() => {
    if (raw.open) raw.close();
  });

  describe('given the same SQL run many times with other parameters', () => {
    it('should prepare it once and bind each call’s own parameters', () => {
      const db = withStatementCache(raw);
      for (const n of [1, 2, 3]) db.prepare('insert into t (n) values (?)').run([n]);
      const rows = db.prepare('select n from t where n >= ? order by n').all([2]);
      expect(rows).toEqual([{ n: 2 }, { n: 3 }]);
      expect(db.prepare('select n from t where n >= ? order by n').all([3])).toEqual([{ n: 3 }]);
      expect(prepared.filter((sql) => sql.startsWith('insert'))).toHaveLength(1);
      expect(prepared.filter((sql) => sql.startsWith('select'))).toHaveLength(1);
    });
  });

  describe('when a query streams', () => {
    it('should stream from a statement of its own and leave the cached one usable', () => {
      const db = withStatementCache(raw);
      for (const n of [1, 2]) db.prepare('insert into t (n) values (?)').run([n]);
      const sql = 'select n from t order by n';
      expect(db.prepare(sql).all([])).toEqual([{ n: 1 }, { n: 2 }]);
      expect([...db.prepare(sql).iterate([])]).toEqual([{ n: 1 }, { n: 2 }]);
      expect(prepared.filter((text) => text === sql)).toHaveLength(2);
      expect(db.prepare(sql).all([])).toEqual([{ n: 1 }, { n: 2 }]);
      expect(prepared.filter((text) => text === sql)).toHaveLength(2);
    });
  });

  it('should close the database it wraps', () => {
    withStatementCache(raw).close();
    expect(raw.open).toBe(false);
  });
});
