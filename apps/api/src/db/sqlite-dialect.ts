import type { SqliteFilesWatch } from './sqlite-files.js';
import {
  CompiledQuery,
  SelectQueryNode,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type SqliteDatabase,
  type SqliteStatement,
  type TransactionSettings,
} from 'kysely';

/**
 * A first-come, first-served lock. Kysely's own SQLite mutex wakes every waiter on unlock and lets them race
 * for it again, so under load a waiter can lose over and over (a session lookup or the outbox worker waited
 * seconds behind later arrivals). Here unlock hands the lock straight to the oldest waiter.
 */
export class FifoLock {
  #locked = false;
  #waiters: (() => void)[] = [];
  #head = 0;

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  unlock(): void {
    if (this.#head < this.#waiters.length) {
      const next = this.#waiters[this.#head] as () => void;
      this.#head += 1;
      if (this.#head > 1024 && this.#head * 2 > this.#waiters.length) {
        this.#waiters = this.#waiters.slice(this.#head);
        this.#head = 0;
      }
      next();
      return;
    }
    this.#waiters = [];
    this.#head = 0;
    this.#locked = false;
  }

  /** How many callers wait for the lock (for tests). */
  get waiting(): number {
    return this.#waiters.length - this.#head;
  }
}

/** BEGIN, COMMIT, ROLLBACK and savepoints: they change no table themselves. */
const TRANSACTION_CONTROL = /^\s*(?:begin|commit|end|rollback|savepoint|release)\b/i;
/**
 * The one table a plain write names, as Kysely's SQLite compiler writes it (`insert into "quotes"`, `update
 * "sessions"`, `delete from "users"`). Anything else that is not a read (DDL, a write behind a WITH clause, raw
 * SQL) is taken to touch every table.
 */
const WRITTEN_TABLE =
  /^\s*(?:(?:insert|replace)(?:\s+or\s+\w+)?\s+into|update(?:\s+or\s+\w+)?|delete\s+from)\s+"([A-Za-z_]\w*)"[\s(]/i;

/**
 * Statements other than reads run on a connection (see committed-reads.ts: a cached read is stale after one),
 * in all and by the table they write.
 */
export class WriteCount {
  /** Every statement other than a read, BEGIN, COMMIT and ROLLBACK included. */
  count = 0;
  readonly #byTable = new Map<string, number>();
  /** Writes whose table is not known: they count for every table. */
  #anyTable = 0;

  /** Counts a statement that is not a read, before it runs. */
  note(sql: string): void {
    this.count += 1;
    if (TRANSACTION_CONTROL.test(sql)) return;
    const table = WRITTEN_TABLE.exec(sql)?.[1]?.toLowerCase();
    if (table === undefined) this.#anyTable += 1;
    else this.#byTable.set(table, (this.#byTable.get(table) ?? 0) + 1);
  }

  /** The writes so far that may have changed one of `tables` (lower case): theirs, and those of unknown tables. */
  touching(tables: readonly string[]): number {
    let total = this.#anyTable;
    for (const table of tables) total += this.#byTable.get(table) ?? 0;
    return total;
  }
}

/**
 * How long a statement waits, in all, for another connection's write lock (the staff tool, a second instance)
 * before it fails with SQLITE_BUSY (answered 503 with Retry-After).
 */
export const BUSY_WAIT_MS = 5_000;

/**
 * How long SQLite itself waits for the lock at each try (`busy_timeout`). better-sqlite3 runs statements on the
 * event loop's thread, and SQLite's busy wait sleeps that thread: with the whole 5 s given to SQLite, every
 * write (and every outbox poll) froze the server for up to 5 s while another process held the lock, health
 * checks and reads included, and writes queued behind one another waited far longer than 5 s. Each try now
 * blocks for at most this long, and the wait between tries is a timer, with the connection left to others.
 */
export const BUSY_TIMEOUT_MS = 20;

const isBusy = (error: unknown): boolean =>
  String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY');

/** A better-sqlite3 database as the dialect uses it: Kysely's interface, and whether a transaction is open. */
export type TransactionAwareDatabase = SqliteDatabase & { readonly inTransaction: boolean };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * What the connection reports to and consults: who is told when a statement finds another connection's write lock
 * and begins to wait for it, and whether the database's files were replaced under this process.
 */
export interface ConnectionWatch {
  onWait?: () => void;
  /** How long a statement waits, in all, for another connection's write lock (default BUSY_WAIT_MS). */
  busyWaitMs?: number;
  /** Set when the database's WAL files were replaced under this process (sqlite-files.ts): writes are refused. */
  files?: SqliteFilesWatch;
}

class SqliteConnection implements DatabaseConnection {
  constructor(
    private readonly db: TransactionAwareDatabase,
    private readonly writes: WriteCount,
    /** The driver's lock on this connection, held by whoever runs a statement on it. */
    private readonly lock: FifoLock,
    private readonly watch: ConnectionWatch,
  ) {}

  /**
   * Runs a statement. One refused because another connection holds the write lock (a `begin immediate`, or a
   * write outside a transaction) is tried again after a pause, with the connection handed to others meanwhile
   * (reads need no write lock), until BUSY_WAIT_MS (or the watch's `busyWaitMs`) have passed. Inside a transaction nothing is tried again: the
   * transaction already holds the lock, and a statement refused there fails as it would have.
   */
  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const deadline = Date.now() + (this.watch.busyWaitMs ?? BUSY_WAIT_MS);
    let pause = 5;
    for (;;) {
      try {
        return this.#run<R>(compiledQuery);
      } catch (error) {
        const left = deadline - Date.now();
        if (!isBusy(error) || this.db.inTransaction || left <= 0) {
          throw error;
        }
        if (pause === 5) this.watch.onWait?.();
        this.lock.unlock();
        try {
          await sleep(Math.min(pause, left));
        } finally {
          await this.lock.lock();
        }
        pause = Math.min(pause * 2, 100);
      }
    }
  }

  /**
   * A write once the WAL files were replaced: refused. A read transaction's start and end are not writes (a
   * ROLLBACK must still run, and a transaction that wrote nothing commits nothing), so reads in a transaction go on
   * as other reads do. The files are looked at again before each write that makes itself durable (a COMMIT of a
   * transaction that wrote, or a write outside a transaction), not only once a second. Found by the thirty-first
   * session's fault probe: with the data folder deleted while the server ran (`rm -rf "$DATA_DIR"`), the next
   * second's quotes and logins were answered 201 and 200, into a database no longer on disk; and the content, read
   * in one transaction, was refused (503) where every other read went on.
   */
  #refuseWriteIfFilesReplaced(sql: string): void {
    const files = this.watch.files;
    if (files === undefined || /^\s*(?:rollback|release|savepoint)\b/i.test(sql)) return;
    // A read transaction's BEGIN; a write transaction's (`begin immediate`, which waits for the write lock) is
    // refused, so that a write waiting for another process's lock stops at once.
    if (/^\s*begin\b(?!\s+(?:immediate|exclusive)\b)/i.test(sql)) return;
    const commit = /^\s*(?:commit|end)\b/i.test(sql);
    if (commit && !this.#wrote) return;
    if (files.replaced === undefined && (commit || !this.db.inTransaction)) files.check();
    if (files.replaced !== undefined) throw files.error();
  }

  /** Whether the transaction open on the connection has run a write (see #refuseWriteIfFilesReplaced). */
  #wrote = false;

  /** Notes a statement other than a read, about to run: whether it is a write of the open transaction. */
  #noteWrite(sql: string): void {
    if (/^\s*begin\b/i.test(sql)) this.#wrote = false;
    else if (!TRANSACTION_CONTROL.test(sql)) this.#wrote = true;
    this.writes.note(sql);
  }

  #run<R>(compiledQuery: CompiledQuery): QueryResult<R> {
    const { sql, parameters } = compiledQuery;
    const statement: SqliteStatement & { readonly?: boolean } = this.db.prepare(sql);
    if (statement.reader) {
      // A write that answers rows (`insert … returning`) is a write all the same.
      if (statement.readonly === false) {
        this.#refuseWriteIfFilesReplaced(sql);
        this.#noteWrite(sql);
      }
      return { rows: statement.all(parameters) as R[] };
    }
    this.#refuseWriteIfFilesReplaced(sql);
    // Counted before it runs: whether it then succeeds, fails or is rolled back, reads kept before it are stale.
    this.#noteWrite(sql);
    const { changes, lastInsertRowid } = statement.run(parameters);
    return {
      numAffectedRows: BigInt(changes),
      insertId: BigInt(lastInsertRowid),
      rows: [],
    };
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiledQuery;
    if (!SelectQueryNode.is(query)) {
      throw new Error('The SQLite driver only streams select queries');
    }
    for (const row of this.db.prepare(sql).iterate(parameters)) {
      yield { rows: [row as R] };
    }
  }
}

const raw = (sql: string) => CompiledQuery.raw(sql);
const BEGIN = raw('begin');
const BEGIN_IMMEDIATE = raw('begin immediate');
const COMMIT = raw('commit');
const ROLLBACK = raw('rollback');

/**
 * Kysely's SQLite driver with a fair lock: the one better-sqlite3 connection is handed out in arrival order.
 * Everything else is as in Kysely's driver (one connection, queries run synchronously).
 */
class FairSqliteDriver implements Driver {
  readonly #lock = new FifoLock();
  readonly #connection: SqliteConnection;

  /** The one connection (for a transaction that holds the lock: FairSqliteDialect's runOnHeldConnection). */
  get connection(): SqliteConnection {
    return this.#connection;
  }

  constructor(
    private readonly db: TransactionAwareDatabase,
    writes: WriteCount,
    private readonly watch: ConnectionWatch,
  ) {
    this.#connection = new SqliteConnection(db, writes, this.#lock, watch);
  }

  async init(): Promise<void> {
    // The database is opened by the caller.
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.lock();
    return this.#connection;
  }

  /**
   * A transaction takes the write lock at BEGIN (`begin immediate`) unless it is marked read only. A deferred
   * BEGIN takes its snapshot at its first read, and SQLite cannot move a transaction that has read onto a newer
   * snapshot to write: a commit by another connection (the staff tool, a second instance) between its first read
   * and its first write failed the write at once ("database is locked", no busy wait) and the request with a 5xx
   * (a submission's idempotency look-up, then its insert, failing its whole group-commit batch). Taking the lock
   * first waits for such a writer instead (up to BUSY_WAIT_MS, see `executeQuery`), and then reads the latest
   * snapshot.
   */
  async beginTransaction(
    connection: DatabaseConnection,
    settings: TransactionSettings = {},
  ): Promise<void> {
    await connection.executeQuery(settings.accessMode === 'read only' ? BEGIN : BEGIN_IMMEDIATE);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(COMMIT);
  }

  /**
   * Rolls back, unless SQLite has already (a full disk, an I/O error, and some failed COMMITs end the transaction
   * themselves): ROLLBACK would then fail with "cannot rollback - no transaction is active", and Kysely would
   * throw that in place of the error that ended the transaction, a full disk's 507 answered as a 500.
   */
  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (!this.db.inTransaction) return;
    await connection.executeQuery(ROLLBACK);
  }

  async savepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`savepoint ${quoteName(name)}`));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`rollback to ${quoteName(name)}`));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string): Promise<void> {
    await connection.executeQuery(raw(`release ${quoteName(name)}`));
  }

  async releaseConnection(): Promise<void> {
    this.#lock.unlock();
  }

  async destroy(): Promise<void> {
    // Closing checkpoints the WAL into the database file: with the WAL files replaced, that would write this
    // process's stale view over the other process's work. The process ends without it.
    if (this.watch.files?.replaced !== undefined) return;
    this.db.close();
  }
}

const quoteName = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * Kysely's SQLite adapter says SQLite has no transactional DDL, so its migrator ran each statement of a
 * migration as its own commit: a kill (or a full disk) half-way through left some tables created and the
 * migration unrecorded, and every later start failed on "table … already exists". SQLite does roll DDL back,
 * so the migrations (and their record in `kysely_migration`) run in one transaction: all or nothing.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}

/** Kysely's SQLite dialect on the fair driver above. */
export class FairSqliteDialect implements Dialect {
  constructor(
    private readonly database: TransactionAwareDatabase,
    /** Counts the statements other than reads run through it. */
    readonly writes: WriteCount = new WriteCount(),
    /** Told when a statement begins to wait for another connection's lock (the start-up's note says so). */
    readonly watch: ConnectionWatch = {},
  ) {}

  createDriver(): Driver {
    const driver = new FairSqliteDriver(this.database, this.writes, this.watch);
    this.#driver = driver;
    return driver;
  }

  #driver: FairSqliteDriver | undefined;

  /**
   * Runs a statement on the dialect's one connection, without taking its lock: only for a transaction that holds
   * it (group-commit.ts, through precompiled.ts's `runningDirectly`).
   */
  readonly runOnHeldConnection = (query: CompiledQuery): Promise<QueryResult<unknown>> => {
    if (this.#driver === undefined) throw new Error('The dialect has no driver yet');
    return this.#driver.connection.executeQuery(query);
  };

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler();
  }

  createAdapter() {
    return new TransactionalDdlSqliteAdapter();
  }

  createIntrospector(db: Kysely<unknown>) {
    return new SqliteIntrospector(db);
  }
}
