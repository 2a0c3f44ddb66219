import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';
import { withStatementCache } from './statement-cache.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Db {
  kysely: Kysely<Database>;
  dialect: Dialect;
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
      dialect: new SqliteDialect({ database: withStatementCache(sqlite) }),
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
  return { kysely, dialect, close: () => kysely.destroy() };
}
