import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** How many distinct statements are kept; past that the cache starts afresh (queries are a small fixed set). */
const MAX_STATEMENTS = 500;

/**
 * Kysely's SQLite driver prepares every query anew; compiling the SQL costs more than running these small
 * indexed queries. This wraps a better-sqlite3 database so each distinct SQL text is prepared once and the
 * statement reused (parameters are bound per call, so reuse is safe). Streaming (`iterate`) gets a fresh
 * statement, since a cached one could still be mid-iteration when the same SQL runs again.
 */
export function withStatementCache(database: {
  close(): void;
  prepare(sql: string): SqliteStatement;
  readonly inTransaction: boolean;
}): SqliteDatabase & { readonly inTransaction: boolean } {
  const cache = new Map<string, SqliteStatement>();
  return {
    // Whether a transaction is open (the dialect asks: SQLite may have ended one by itself).
    get inTransaction() {
      return database.inTransaction;
    },
    close: () => {
      cache.clear();
      database.close();
    },
    prepare: (sql) => {
      let statement = cache.get(sql);
      if (statement === undefined) {
        if (cache.size >= MAX_STATEMENTS) cache.clear();
        statement = database.prepare(sql);
        cache.set(sql, statement);
      }
      const cached = statement;
      return {
        reader: cached.reader,
        // better-sqlite3's: false for a statement that writes, a write with RETURNING (a reader) included.
        readonly: (cached as SqliteStatement & { readonly?: boolean }).readonly,
        all: (parameters) => cached.all(parameters),
        run: (parameters) => cached.run(parameters),
        iterate: (parameters) => database.prepare(sql).iterate(parameters),
      };
    },
  };
}
