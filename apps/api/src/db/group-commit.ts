import { CompiledQuery, type Kysely } from 'kysely';
import { runningDirectly, type DirectRun } from './precompiled.js';

/**
 * A unit of durable work: database statements only. It runs inside a transaction (on SQLite together with
 * other units), so it must not wait for anything but its own queries (no network, no files, no timers). On SQLite
 * it may run twice (when another unit of its batch throws, the batch is rolled back and runs again), so it must
 * have no effect outside the database.
 */
export type Work<DB, T> = (trx: Kysely<DB>) => Promise<T>;

interface Item<DB> {
  work: Work<DB, unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  outcome: { ok: true; value: unknown } | { ok: false; error: unknown } | undefined;
}

const SAVEPOINT = CompiledQuery.raw('savepoint unit');
const ROLLBACK_TO = CompiledQuery.raw('rollback to unit');
const RELEASE = CompiledQuery.raw('release unit');

/** Units per transaction at most; more wait for the next one. */
export const MAX_BATCH = 256;

export interface GroupCommitStats {
  /** Transactions committed (or attempted) so far. */
  transactions: number;
  /** Units that ran in them. */
  units: number;
}

/**
 * Group commit for SQLite, where every commit is an fsync (synchronous=FULL) and there is one connection.
 * Units submitted while the event loop is busy (in the same turn, or while a batch is being committed) are
 * gathered and run in ONE transaction:
 *
 * - a unit that throws fails alone; the others go on (the transaction is rolled back and the batch runs again,
 *   each unit in its own savepoint, so the failing unit's statements are undone and the others' kept);
 * - a unit may therefore run twice (the first run rolled back): it must be database statements only;
 * - every promise settles only after the COMMIT holding its unit has returned, so nothing is acknowledged
 *   before it is durable; when the commit fails, every unit of that transaction fails (nothing is stored);
 * - units run one after another in submission order, so e.g. sequence counters advance as they would with
 *   one transaction per unit.
 */
export class GroupCommit<DB> {
  readonly #db: Kysely<DB>;
  /** Runs a precompiled statement straight on the connection the batch's transaction holds (precompiled.ts). */
  readonly #direct: DirectRun | undefined;
  #queue: Item<DB>[] = [];
  #scheduled = false;
  #flushing: Promise<void> | undefined;
  readonly stats: GroupCommitStats = { transactions: 0, units: 0 };

  constructor(db: Kysely<DB>, direct?: DirectRun) {
    this.#db = db;
    this.#direct = direct;
  }

  submit<T>(work: Work<DB, T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#queue.push({
        work,
        resolve: resolve as (value: unknown) => void,
        reject,
        outcome: undefined,
      });
      this.#schedule();
    });
  }

  /** Resolves once every unit submitted so far has settled. */
  async drain(): Promise<void> {
    while (this.#flushing !== undefined || this.#queue.length > 0 || this.#scheduled) {
      if (this.#flushing !== undefined) await this.#flushing;
      else await new Promise((resolve) => setImmediate(resolve));
    }
  }

  #schedule(): void {
    if (this.#scheduled || this.#flushing !== undefined) return;
    this.#scheduled = true;
    // After the I/O callbacks of this turn: every request parsed in it has submitted its unit by then.
    setImmediate(() => {
      this.#scheduled = false;
      this.#flushing = this.#flush().finally(() => {
        this.#flushing = undefined;
        if (this.#queue.length > 0) this.#schedule();
      });
    });
  }

  async #flush(): Promise<void> {
    let batch: Item<DB>[] | undefined;
    let unitFailed = false;
    // First the units one after another without savepoints: almost always every unit succeeds, and a savepoint
    // and its release are two of the few statements a unit runs. If a unit throws, this transaction is rolled
    // back whole and the batch runs again, each unit in its own savepoint (below).
    try {
      await this.#db.transaction().execute((trx) =>
        runningDirectly(trx, this.#direct, async () => {
          // Taken once the connection is ours, so units queued while waiting for it come along.
          batch = this.#queue.splice(0, MAX_BATCH);
          this.stats.transactions += 1;
          this.stats.units += batch.length;
          for (const item of batch) {
            try {
              item.outcome = { ok: true, value: await item.work(trx) };
            } catch (error) {
              unitFailed = true;
              throw error;
            }
          }
        }),
      );
    } catch (error) {
      if (batch !== undefined && unitFailed) {
        for (const item of batch) item.outcome = undefined;
        await this.#flushWithSavepoints(batch);
        return;
      }
      // No transaction (BEGIN failed) or its COMMIT failed: the units fail rather than wait forever, and nothing
      // of theirs is stored.
      batch ??= this.#queue.splice(0, MAX_BATCH);
      for (const item of batch) item.reject(error);
      return;
    }
    settle(batch ?? []);
  }

  /** The batch again, each unit in its own savepoint: a unit that throws is rolled back and fails alone. */
  async #flushWithSavepoints(batch: Item<DB>[]): Promise<void> {
    try {
      await this.#db.transaction().execute((trx) =>
        runningDirectly(trx, this.#direct, async () => {
          this.stats.transactions += 1;
          for (const item of batch) {
            await trx.executeQuery(SAVEPOINT);
            try {
              item.outcome = { ok: true, value: await item.work(trx) };
            } catch (error) {
              item.outcome = { ok: false, error };
              try {
                await trx.executeQuery(ROLLBACK_TO);
              } catch {
                // SQLite has already rolled the whole transaction back (e.g. disk full, I/O error): the
                // batch fails as a whole, with this unit's error as the reason.
                throw error;
              }
            }
            await trx.executeQuery(RELEASE);
          }
        }),
      );
    } catch (error) {
      for (const item of batch) {
        item.reject(item.outcome?.ok === false ? item.outcome.error : error);
      }
      return;
    }
    settle(batch);
  }
}

/** Settles each unit of a committed batch with its own outcome. */
function settle<DB>(batch: readonly Item<DB>[]): void {
  for (const item of batch) {
    if (item.outcome?.ok === true) item.resolve(item.outcome.value);
    else item.reject(item.outcome?.error ?? new Error('The unit did not run'));
  }
}
