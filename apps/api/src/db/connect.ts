import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { GroupCommit, type Work } from './group-commit.js';
import { migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';
import { FairSqliteDialect } from './sqlite-dialect.js';
import { withStatementCache } from './statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
  /**
   * Runs `work` (database statements only) in a transaction and resolves once it is committed. On SQLite,
   * units submitted together share one transaction and one fsync, each in its own savepoint (see
   * GroupCommit); on PostgreSQL each unit has its own transaction. Use it for writes a request waits for.
   */
  write<T>(work: Work<Database, T>): Promise<T>;
  /** Waits for pending writes, then closes the connection(s). */
  close(): Promise<void>;
}

/**
 * Opens the database named by the configuration (SQLite file under DATA_DIR, or PostgreSQL) and runs the
 * migrations. SQLite runs in WAL mode with synchronous=FULL so an acknowledged write survives a crash.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'> &
    Partial<Pick<Config, 'databasePoolSize'>>,
): Promise<Db> {
  let kysely: Kysely<Database>;
  let dialect: Dialect;
  if (config.databaseUrl === null) {
    mkdirSync(config.dataDir, { recursive: true });
    const sqlite = new SqliteDatabase(path.join(config.dataDir, 'portal.sqlite'));
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = FULL');
    sqlite.pragma('busy_timeout = 5000');
    kysely = new Kysely<Database>({
      dialect: new FairSqliteDialect(withStatementCache(sqlite)),
    });
    dialect = 'sqlite';
  } else {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.databasePoolSize ?? 10,
      ...(config.databaseSchema === null
        ? {}
        : { options: `-c search_path=${config.databaseSchema}` }),
    });
    kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    dialect = 'postgres';
  }
  try {
    if (dialect === 'postgres' && config.databaseSchema !== null) {
      await sql`create schema if not exists ${sql.id(config.databaseSchema)}`.execute(kysely);
    }
    await migrateToLatest(kysely as Kysely<unknown>, config.databaseSchema);
  } catch (error) {
    await kysely.destroy();
    throw error;
  }
  if (dialect === 'postgres') {
    return {
      kysely,
      dialect,
      write: (work) => kysely.transaction().execute(work),
      close: () => kysely.destroy(),
    };
  }
  const group = new GroupCommit(kysely);
  return {
    kysely,
    dialect,
    write: (work) => group.submit(work),
    async close() {
      await group.drain();
      await kysely.destroy();
    },
  };
}
