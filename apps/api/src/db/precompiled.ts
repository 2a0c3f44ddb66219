import type { CompiledQuery, Kysely, QueryResult } from 'kysely';
import type { Database } from './schema.js';

/** Stands for a parameter while a query is compiled: a string no caller could mean as a value. */
const slotValue = (name: string) => `\u0000slot:${name}\u0000`;

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
    return db.executeQuery<Row>({ ...query, parameters } as CompiledQuery<Row>);
  };
}
