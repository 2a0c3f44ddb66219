import type { Kysely } from 'kysely';

/**
 * How a SQLite database tells that something was written to it since a moment: this process's own writes
 * (every statement that is not a read, counted by the dialect: see sqlite-dialect.ts) and the commits of every
 * other connection to the file (another instance, the staff tool), which SQLite reports as a new
 * `PRAGMA data_version` on this connection.
 */
export interface ChangeSource {
  /** `PRAGMA data_version` of this process's connection: moves when another connection commits. */
  dataVersion(): number;
  /**
   * Statements other than reads this process has run: all of them (BEGIN, COMMIT and ROLLBACK included), or,
   * given `tables`, those that may have written one of them (a write whose table is not known counts for all).
   */
  localWrites(tables?: readonly string[]): number;
}

/** Where a read began: the state of the database it read, as far as a ChangeSource can tell. */
export interface Mark {
  readonly dataVersion: number;
  readonly localWrites: number;
}

/**
 * One check of other connections' commits that several reads may share: the first read that asks checks (one
 * `PRAGMA data_version`), the others take its answer. Only for reads that may all be answered with the
 * database as it was at that check, that is of requests that had all arrived before it was made: the server
 * hands one to the requests that came in together (services/arrival-turn.ts). This process's own writes are
 * still counted at each read.
 */
export class SharedCheck {
  readonly #versions = new WeakMap<ChangeSource, number>();

  dataVersion(source: ChangeSource): number {
    let version = this.#versions.get(source);
    if (version === undefined) {
      version = source.dataVersion();
      this.#versions.set(source, version);
    }
    return version;
  }
}

const sources = new WeakMap<object, ChangeSource>();

/** Says how `db` (a SQLite database, not one of its transactions) reports changes; connect.ts calls it. */
export function watchChanges(db: Kysely<unknown>, source: ChangeSource): void {
  sources.set(db, source);
}

/**
 * Answers of reads kept in memory for exactly as long as nothing has been written to the database since they
 * were read, by anyone: the first write of this process (to the tables its reads read, when it was told them)
 * or commit of any other connection empties it. So an
 * answer served from it is the answer the database would give now: a logout, an expired session or a policy
 * changed by another instance or by the staff tool counts at the very next request, as without it.
 *
 * Only for reads outside a transaction (they run when no transaction holds the one connection, so they see
 * committed data only), and only on SQLite: `committedReadsOf` answers `undefined` for PostgreSQL and for
 * transactions. Checking costs one `PRAGMA data_version` (a few microseconds) instead of the read itself.
 */
export class CommittedReads<V> {
  readonly #source: ChangeSource;
  readonly #max: number;
  readonly #tables: readonly string[] | undefined;
  readonly #entries = new Map<string, V>();
  #version = Number.NaN;
  #localWrites = Number.NaN;

  /**
   * @param tables - the tables its reads read (lower case): only this process's writes to them (or to tables
   *   it cannot tell) make it forget, and a transaction that writes none of them leaves it as it is. Without
   *   them every statement other than a read does, BEGIN included. Another connection's commit always does.
   */
  constructor(source: ChangeSource, max = 10_000, tables?: readonly string[]) {
    this.#source = source;
    this.#max = max;
    this.#tables = tables;
  }

  /**
   * Takes note of the database's state before a read whose answer may then be kept with `set`.
   * @param shared - the check of other connections' commits this read may use (see {@link SharedCheck}).
   */
  mark(shared?: SharedCheck): Mark | undefined {
    try {
      return {
        dataVersion: this.#dataVersion(shared),
        localWrites: this.#source.localWrites(this.#tables),
      };
    } catch {
      // The connection cannot answer now (busy): nothing is kept.
      return undefined;
    }
  }

  /**
   * The answer kept under `key`, if nothing has been written since it was read.
   * @param shared - the check of other connections' commits this read may use (see {@link SharedCheck}).
   */
  get(key: string, shared?: SharedCheck): V | undefined {
    return this.#sync(shared) ? this.#entries.get(key) : undefined;
  }

  /** Keeps `value` (read after `mark`) unless something was written since the mark. */
  set(key: string, value: V, mark: Mark | undefined, shared?: SharedCheck): void {
    if (mark === undefined || !this.#sync(shared)) return;
    if (mark.dataVersion !== this.#version || mark.localWrites !== this.#localWrites) return;
    // Bounded: past `max` answers (random prefixes, say) it starts afresh.
    if (this.#entries.size >= this.#max) this.#entries.clear();
    this.#entries.set(key, value);
  }

  /** How many answers are kept (for tests). */
  get size(): number {
    return this.#entries.size;
  }

  #dataVersion(shared: SharedCheck | undefined): number {
    return shared === undefined ? this.#source.dataVersion() : shared.dataVersion(this.#source);
  }

  /**
   * Empties the answers if anything was written since they were read; false if the state cannot be read.
   *
   * A shared check may be older than another read's own (a commit by another connection in between): the
   * answers are then emptied, and kept from then on under the older version. That is safe both ways: a pair
   * of data version and count of this process's writes names one state of the database, so an answer kept
   * under the older pair was read in that state or after it (never before the shared check, which every read
   * using it may be answered from), and the next read with the newer version empties them again.
   */
  #sync(shared: SharedCheck | undefined): boolean {
    let dataVersion: number;
    let localWrites: number;
    try {
      dataVersion = this.#dataVersion(shared);
      localWrites = this.#source.localWrites(this.#tables);
    } catch {
      this.#entries.clear();
      this.#version = Number.NaN;
      return false;
    }
    if (dataVersion !== this.#version || localWrites !== this.#localWrites) {
      this.#entries.clear();
      this.#version = dataVersion;
      this.#localWrites = localWrites;
    }
    return true;
  }
}

const caches = new WeakMap<object, Map<string, CommittedReads<unknown>>>();

/**
 * The cache named `name` of committed reads for `db`, or `undefined` when `db` is not a watched SQLite database
 * (PostgreSQL, where several instances each hold a pool, or a transaction).
 */
export function committedReadsOf<V>(
  db: Kysely<unknown>,
  name: string,
  /** The tables its reads read (see {@link CommittedReads}); fixed by the first call for a name. */
  tables?: readonly string[],
): CommittedReads<V> | undefined {
  const source = sources.get(db);
  if (source === undefined) return undefined;
  let named = caches.get(db);
  if (named === undefined) {
    named = new Map();
    caches.set(db, named);
  }
  let cache = named.get(name);
  if (cache === undefined) {
    cache = new CommittedReads<unknown>(source, undefined, tables);
    named.set(name, cache);
  }
  return cache as CommittedReads<V>;
}
