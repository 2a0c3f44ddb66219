import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

/** Stands for a parameter while a query is compiled: a string no caller could mean as a value. */
const slotValue = (name: string) => `\u0000slot:${name}\u0000`;

/** Runs a compiled statement straight on the connection a transaction holds. */
export type DirectRun = (query: CompiledQuery) => Promise<QueryResult<unknown>>;

/** The transactions whose precompiled statements run straight on their connection, and how. */
const directRuns = new WeakMap<object, DirectRun>();

/**
 * Runs `work` with the precompiled statements of the transaction `trx` run by `run`, straight on the connection the
 * transaction holds, not through Kysely's executor: on SQLite a statement runs synchronously, and Kysely's path
 * (an executor, a connection provider and half a dozen promises a statement) allocated more than the statement
 * itself, an eighth of what a calculator's POST allocated (group-commit.ts). Only while `work` runs: once it has
 * returned, the transaction commits, and the statements go Kysely's way again (which refuses them). `work` must
 * await each statement before the next, as units of work do: a statement run directly does not queue behind one
 * sent through Kysely and not yet awaited. Kysely's plugins are left out of that path too (the database has none:
 * one that transforms results would have to be applied here as well).
 */
export async function runningDirectly<T>(
  trx: object,
  run: DirectRun | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (run === undefined) return work();
  directRuns.set(trx, run);
  try {
    return await work();
  } finally {
    directRuns.delete(trx);
  }
}

interface Compiled<Name extends string> {
  query: CompiledQuery;
  /** For each parameter, the slot it takes its value from, or undefined for a fixed value. */
  slots: (Name | undefined)[];
}

/**
 * A hot query built with Kysely's typed builder once per database rather than on every call (building and
 * compiling cost more than running these small statements): `build` gets a `slot(name)` to use where a value
 * goes (typed `never`, so it fits any column; the builder still checks the column names and which columns an
 * insert needs); each call supplies the values by name. Fixed values in the query stay as compiled. The SQL
 * differs by dialect, so it is compiled once per adapter (a database and its transactions share one).
 */
export function precompiled<Name extends string, Row = unknown>(
  names: readonly Name[],
  build: (db: Kysely<Database>, slot: (name: Name) => never) => { compile(): CompiledQuery<Row> },
): (db: Kysely<Database>, values: Record<Name, unknown>) => Promise<QueryResult<Row>> {
  const byAdapter = new WeakMap<object, Compiled<Name>>();
  const compile = (db: Kysely<Database>): Compiled<Name> => {
    const query = build(db, slotValue as unknown as (name: Name) => never).compile();
    const wanted = new Map<unknown, Name>(names.map((name) => [slotValue(name), name]));
    const slots = query.parameters.map((p) => wanted.get(p));
    const used = new Set(slots.filter((s) => s !== undefined));
    const missing = names.filter((name) => !used.has(name));
    if (missing.length > 0) {
      throw new Error(`Precompiled query: no parameter for ${missing.join(', ')}`);
    }
    return { query, slots };
  };
  return async (db, values) => {
    const adapter = db.getExecutor().adapter;
    let compiled = byAdapter.get(adapter);
    if (compiled === undefined) {
      compiled = compile(db);
      byAdapter.set(adapter, compiled);
    }
    const { query, slots } = compiled;
    const parameters = slots.map((slot, i) =>
      slot === undefined ? query.parameters[i] : values[slot],
    );
    const filled = { ...query, parameters } as CompiledQuery<Row>;
    const direct = directRuns.get(db);
    return direct === undefined
      ? db.executeQuery<Row>(filled)
      : (direct(filled) as Promise<QueryResult<Row>>);
  };
}
