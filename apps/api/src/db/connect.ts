import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Config } from '../config.js';
import { makeDataDir } from '../data-dir.js';
import { watchChanges } from './committed-reads.js';
import { ANSWER_GRACE_MS, armAnswerDeadline } from './answer-deadline.js';
import { GroupCommit, type Work } from './group-commit.js';
import type { DirectRun } from './precompiled.js';
import { START_LOCK_WAIT_MS, migrateToLatest, type MigrateOptions } from './migrations.js';
import type { Database } from './schema.js';
import { BUSY_TIMEOUT_MS, FairSqliteDialect, type ConnectionWatch } from './sqlite-dialect.js';
import { SqliteFilesWatch } from './sqlite-files.js';
import { withStatementCache } from './statement-cache.js';
import { StorageError, WRITABLE_DATA_DIR, codeOf, storageProblem } from '../storage-error.js';
import { databaseHost } from './unavailable.js';

export type Dialect = 'sqlite' | 'postgres';

/** The least time the server's PostgreSQL transactions may stay idle, whatever DATABASE_TIMEOUT_MS says. */
export const IDLE_IN_TRANSACTION_FLOOR_MS = 1_000;

type Sqlite = SqliteDatabase.Database;

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

/** An error opening the SQLite database, as one plain line naming the file, the reason and the code, or as it was. */
function openError(file: string, error: unknown): unknown {
  const code = codeOf(error);
  // Found by the seventeenth session's fault probe: a JSON line with a stack, and the staff tool's "Failed: file
  // is not a database" without the file's name.
  if (code === 'SQLITE_NOTADB' || code.startsWith('SQLITE_CORRUPT')) {
    return new StorageError(
      `The database ${file} is damaged or is not a SQLite database (${code}). Restore it from a backup; nothing ` +
        'was changed.',
      { cause: error },
    );
  }
  const problem = storageProblem(code);
  if (problem === undefined) return error;
  return new StorageError(
    `The database ${file} cannot be written: ${problem} (${code}). ${WRITABLE_DATA_DIR}`,
    {
      cause: error,
    },
  );
}

/**
 * Opens (creating it if need be) DATA_DIR/portal.sqlite in WAL mode with synchronous=FULL, and proves it takes a
 * write: on read-only or full storage the server used to start, then answer 500 to every login and submission
 * (a database left with its -shm file opens and reads fine). Another process holding the write lock is no
 * reason to refuse: it will let go.
 */
function openSqlite(dataDir: string, mustExist: boolean): Sqlite {
  const file = path.join(dataDir, 'portal.sqlite');
  if (mustExist && !((sizeOf(file) ?? 0) > 0)) {
    // Found by the twenty-fourth session's fault probe: a mistyped DATA_DIR (or none, meaning ./data) made a new,
    // empty portal there, and the staff tool answered "No clients yet." or "Nothing waiting" with exit code 0.
    throw new StorageError(
      `There is no portal database at ${file}: is DATA_DIR right? This command works on an existing portal and ` +
        'does not start a new one (the server makes the database at its first start).',
    );
  }
  // Only a folder created here gets the mode; one the operator made keeps theirs.
  makeDataDir(dataDir);
  refuseDatabaseNotFound(file, dataDir);
  let sqlite: Sqlite | undefined;
  try {
    sqlite = new SqliteDatabase(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('synchronous = FULL');
    // Short: the wait for another connection's lock is the dialect's, between tries (sqlite-dialect.ts).
    sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    try {
      // Writes the header's user version back unchanged: a real (if tiny) write transaction.
      const version = Number(sqlite.pragma('user_version', { simple: true }));
      sqlite.pragma(`user_version = ${version}`);
    } catch (error) {
      if ((error as { code?: unknown }).code !== 'SQLITE_BUSY') throw error;
    }
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw openError(file, error);
  }
}

/**
 * A database file missing, or empty (0 bytes), beside uploads or media of earlier runs is a restore that did not
 * finish (or a file deleted or emptied by mistake), not a first start: SQLite would take it as a new database, and
 * the server would seed the demo clients and go on as a fresh portal (found by the nineteenth session's fault
 * probe for an empty file, by the twentieth's for a missing one). A first start stopped before its first write may
 * leave an empty file, but nothing beside it yet. And an empty file beside a non-empty write-ahead log is the rest
 * of a database whose file was emptied (turning WAL on writes the file's first page, so a database in WAL mode is
 * never an empty file): SQLite would start a new one over that log, and its changes would be lost for good (found
 * by the twentieth session's fault probe).
 */
function refuseDatabaseNotFound(file: string, dataDir: string): void {
  const size = sizeOf(file);
  // Unreadable (opening it says why), or a database with pages, is no restore that did not finish.
  if (size === null || (size ?? 0) > 0) return;
  if (size === 0 && (sizeOf(`${file}-wal`) ?? 0) > 0) {
    throw new StorageError(
      `The database ${file} is empty (0 bytes), but its write-ahead log ${file}-wal holds changes of a database ` +
        'whose file was emptied. Restore the database from a backup (with its -wal file, if it has one); ' +
        'nothing was changed.',
    );
  }
  const earlier = ['uploads', 'media'].filter((folder) => holdsFiles(path.join(dataDir, folder)));
  if (earlier.length === 0) return;
  const what = size === undefined ? 'missing' : 'empty (0 bytes)';
  throw new StorageError(
    `The database ${file} is ${what}, but ${earlier.join(' and ')} in ${dataDir} hold files of earlier ` +
      'runs: a restore that did not finish? Restore the database from a backup, or ' +
      (size === undefined
        ? `move ${earlier.join(' and ')} away to start a new portal in this folder.`
        : 'delete the empty file to start a new portal in this folder.'),
  );
}

/**
 * Refuses a PostgreSQL database, or schema, that holds no portal (no migrations table there), as `openSqlite`
 * refuses a DATA_DIR with no database. Found by the twenty-fifth session's PostgreSQL probe: the staff tool pointed
 * at the wrong database or DATABASE_SCHEMA made the schema and a new, empty portal there, and said "No clients yet."
 * with exit code 0.
 */
/**
 * Refuses a PostgreSQL user that lacks a right the portal's writes need on one of its tables (SELECT, INSERT, UPDATE,
 * DELETE) or sequences (USAGE), with PostgreSQL's own code and words, which `postgresProblem` says in one line. Found
 * by the twenty-sixth session's probe: a user granted only SELECT started the server, which then answered every
 * login and submission 500 "Internal server error".
 */
async function refuseReadOnly(kysely: Kysely<Database>, schema: string | null): Promise<void> {
  const { rows } = await sql<{ kind: string; name: string; privilege: string }>`
    select case when c.relkind = 'S' then 'sequence' else 'table' end as kind, c.relname as name, p.privilege
    from pg_class c
      join pg_namespace n on n.oid = c.relnamespace
      join (values ('r', 'SELECT'), ('r', 'INSERT'), ('r', 'UPDATE'), ('r', 'DELETE'), ('S', 'USAGE'))
        as p(relkind, privilege) on p.relkind = c.relkind
    where n.nspname = coalesce(${schema}::text, current_schema())
      and not (case when c.relkind = 'S' then has_sequence_privilege(c.oid, p.privilege)
        else has_table_privilege(c.oid, p.privilege) end)
    order by c.relname, p.privilege
    limit 1
  `.execute(kysely);
  const missing = rows[0];
  if (missing === undefined) return;
  throw Object.assign(
    new Error(
      `permission denied for ${missing.kind} ${missing.name} (it may not ${missing.privilege.toLowerCase()})`,
    ),
    { code: '42501' },
  );
}

async function refuseNoPortal(
  kysely: Kysely<Database>,
  url: string,
  schema: string | null,
): Promise<void> {
  // Without DATABASE_SCHEMA, the migrations' table is looked for through the search_path, as the migrator does.
  const table = schema === null ? 'kysely_migration' : `"${schema}".kysely_migration`;
  const { rows } = await sql<{
    database: string;
    schema: string | null;
    schema_exists: boolean;
    portal: boolean;
  }>`
    select database, schema, exists (select from pg_namespace where nspname = schema) as schema_exists,
      to_regclass(${table}) is not null as portal
    from (select current_database() as database,
      coalesce(${schema}::text, current_schema()) as schema) as here
  `.execute(kysely);
  const found = rows[0];
  if (found === undefined || found.portal) return;
  const where =
    `the PostgreSQL database ${databaseHost(url)}/${found.database}` +
    (found.schema === null
      ? ''
      : `, schema "${found.schema}"${found.schema_exists ? '' : ' (no such schema)'}`);
  throw new StorageError(
    `There is no portal in ${where}: are DATABASE_URL and DATABASE_SCHEMA right? This command works on an ` +
      'existing portal and does not start a new one (the server makes its tables at its first start).',
  );
}

/** A file's size; undefined when there is none, null when it cannot be looked at. */
function sizeOf(file: string): number | null | undefined {
  try {
    return statSync(file).size;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : null;
  }
}

/** Whether a folder holds any file, at any depth. */
function holdsFiles(folder: string): boolean {
  try {
    return readdirSync(folder, { recursive: true, withFileTypes: true }).some((entry) =>
      entry.isFile(),
    );
  } catch {
    return false;
  }
}

/**
 * Opens the database named by the configuration (SQLite file under DATA_DIR, or PostgreSQL) and runs the
 * migrations. SQLite runs in WAL mode with synchronous=FULL so an acknowledged write survives a crash.
 */
export async function openDatabase(
  config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'dataDir'> &
    Partial<Pick<Config, 'databasePoolSize' | 'databaseTimeoutMs'>>,
  /** Told of each PostgreSQL connection that breaks (the pool replaces it); the server logs it. */
  onConnectionLost: (error: Error) => void = () => undefined,
  /**
   * PostgreSQL: also end any statement that runs longer than `databaseTimeoutMs` (the server, whose requests must
   * not wait for ever; not the staff tool, whose import may rightly wait for another's). Either ends a transaction
   * left idle as long. SQLite: how long
   * the migrations wait for another process's write lock, and who is told the wait has begun (migrations.ts).
   */
  {
    statementTimeout = false,
    onFilesReplaced = () => undefined,
    busyWaitMs,
    mustExist = false,
    mustWrite = false,
    ...lockWait
  }: {
    statementTimeout?: boolean;
    /** SQLite: told once when the database's -wal or -shm file is deleted or replaced (sqlite-files.ts). */
    onFilesReplaced?: (name: string) => void;
    /**
     * SQLite: once the database is open, how long each statement waits for another process's write lock (default
     * 5 s, BUSY_WAIT_MS: a request must not wait long). The staff tool waits as long as at its start, and is told
     * (`onLockWait`) once when such a wait begins.
     */
    busyWaitMs?: number;
    /**
     * Refuse a DATA_DIR with no database (SQLite), or a database or schema with no portal (PostgreSQL), rather than
     * start a new portal there (the staff tool's commands but `client add`).
     */
    mustExist?: boolean;
    /**
     * PostgreSQL: refuse a user that may not write every table of the portal (the server's start, as SQLite's start
     * proves the file takes a write; not the staff tool, whose reads and exports a read-only user may rightly run).
     */
    mustWrite?: boolean;
  } & MigrateOptions = {},
): Promise<Db> {
  let kysely: Kysely<Database>;
  /** PostgreSQL with a statement timeout: the connections the start's migrations run on (closed once done). */
  let startKysely: Kysely<Database> | undefined;
  let dialect: Dialect;
  let sqliteWatch: ConnectionWatch | null = null;
  let sqliteFiles: SqliteFilesWatch | undefined;
  let sqliteRun: DirectRun | undefined;
  if (config.databaseUrl === null) {
    const sqlite = openSqlite(config.dataDir, mustExist);
    const sqliteDialect = new FairSqliteDialect(withStatementCache(sqlite));
    kysely = new Kysely<Database>({ dialect: sqliteDialect });
    sqliteRun = sqliteDialect.runOnHeldConnection;
    dialect = 'sqlite';
    sqliteWatch = sqliteDialect.watch;
    sqliteFiles = new SqliteFilesWatch(path.join(config.dataDir, 'portal.sqlite'), onFilesReplaced);
    sqliteWatch.files = sqliteFiles;
    sqliteFiles.start();
    // Reads that may be kept until the next write by anyone (committed-reads.ts): this process's writes are
    // counted by the dialect, other connections' commits move the data version.
    const dataVersion = sqlite.prepare('pragma data_version').pluck();
    watchChanges(kysely as Kysely<unknown>, {
      dataVersion: () => dataVersion.get() as number,
      localWrites: (tables) =>
        tables === undefined ? sqliteDialect.writes.count : sqliteDialect.writes.touching(tables),
    });
  } else {
    // Without these a PostgreSQL that is up but stuck (a lock held, a host that stopped answering) held each
    // request, and then every request queued for the pool's connections, for ever: the wait is bounded and
    // the request answered 503 (db/unavailable.ts).
    const timeoutMs = config.databaseTimeoutMs ?? 10_000;
    const options = [
      ...(config.databaseSchema === null ? [] : [`-c search_path=${config.databaseSchema}`]),
      // A transaction left idle (its process stopped, paused or cut off mid-transaction) is ended by PostgreSQL, and
      // its locks with it: one instance standing still inside a login held `login_attempts`' lock, and every other
      // instance's logins were answered 503 until it woke (found by the thirtieth session's PostgreSQL probe); a
      // staff tool stopped (Ctrl-Z, a laptop put to sleep) inside an import held its client's row, and that
      // client's open logins, likewise. The staff tool's statements may wait as long as they must; it is never
      // idle inside a transaction but when stopped. At least a second: a busy event loop between two statements is
      // no stall.
      `-c idle_in_transaction_session_timeout=${Math.max(timeoutMs, IDLE_IN_TRANSACTION_FLOOR_MS)}`,
    ];
    const connectionString = config.databaseUrl;
    const connect = (max: number, statementMs: number | null): Kysely<Database> => {
      const pool = new pg.Pool({
        connectionString,
        max,
        connectionTimeoutMillis: timeoutMs,
        options: [
          ...options,
          ...(statementMs === null ? [] : [`-c statement_timeout=${statementMs}`]),
        ].join(' '),
      });
      // A connection PostgreSQL ends (a restart, `pg_terminate_backend`, a network cut) is reported as an
      // 'error' event: on the pool while the connection is idle, on the client while a request holds it
      // between statements. Unheard, either event ended the whole server. The pool drops the broken
      // connection and opens a new one for the next request; a statement that was running fails on its own.
      pool.on('error', onConnectionLost);
      pool.on('connect', (client) => {
        client.on('error', onConnectionLost);
        // Past its statement timeout, a statement PostgreSQL says nothing about is given up (answer-deadline.ts).
        if (statementMs !== null) armAnswerDeadline(client, statementMs + ANSWER_GRACE_MS);
      });
      return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    };
    kysely = connect(config.databasePoolSize ?? 10, statementTimeout ? timeoutMs : null);
    // The migrations are not a request: they wait for another instance's migrations, or run a long statement, as
    // SQLite's start does, up to a minute (START_LOCK_WAIT_MS), on connections of their own. Bounded by the
    // requests' timeout, a start under load failed `canceling statement due to statement timeout` in the
    // migrator's first look at the tables (found by the thirtieth session's run of the PostgreSQL suite).
    if (statementTimeout) startKysely = connect(2, Math.max(timeoutMs, START_LOCK_WAIT_MS));
    dialect = 'postgres';
  }
  try {
    if (dialect === 'postgres' && mustExist) {
      await refuseNoPortal(kysely, config.databaseUrl ?? '', config.databaseSchema);
    }
    if (dialect === 'postgres' && config.databaseSchema !== null) {
      await sql`create schema if not exists ${sql.id(config.databaseSchema)}`.execute(kysely);
    }
    // The wait for another process's lock is told once, whether it is met by a statement (the dialect's
    // waits) or by the migrations' transaction (migrations.ts).
    const { onLockWait } = lockWait;
    let told = false;
    const tell = (waitMs: number) => {
      if (told) return;
      told = true;
      onLockWait?.(waitMs);
    };
    if (sqliteWatch !== null) {
      sqliteWatch.onWait = () => tell(lockWait.lockWaitMs ?? START_LOCK_WAIT_MS);
    }
    try {
      await migrateToLatest((startKysely ?? kysely) as Kysely<unknown>, config.databaseSchema, {
        ...lockWait,
        onLockWait: tell,
      });
    } finally {
      if (sqliteWatch !== null) delete sqliteWatch.onWait;
      await startKysely?.destroy();
    }
    if (dialect === 'postgres' && mustWrite) await refuseReadOnly(kysely, config.databaseSchema);
    if (sqliteWatch !== null && busyWaitMs !== undefined) {
      // Found by the twenty-third session's staff-tool probe: an import that met a server's write lock after the
      // start failed after 5 s with SQLite's bare "database is locked", where the start waits a minute.
      sqliteWatch.busyWaitMs = busyWaitMs;
      let toldRunning = false;
      sqliteWatch.onWait = () => {
        if (toldRunning) return;
        toldRunning = true;
        onLockWait?.(busyWaitMs);
      };
    }
  } catch (error) {
    sqliteFiles?.stop();
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
  const group = new GroupCommit(kysely, sqliteRun);
  return {
    kysely,
    dialect,
    write: (work) => group.submit(work),
    async close() {
      await group.drain();
      sqliteFiles?.stop();
      await kysely.destroy();
    },
  };
}
