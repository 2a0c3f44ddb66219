import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * The next reference of a kind for the year, e.g. `BW-2026-000123`. Call inside the transaction that stores
 * the row: the counter row is locked by the update until commit, so concurrent submissions never share one.
 */
export async function nextReference(
  db: Kysely<Database>,
  prefix: string,
  now: Date,
): Promise<string> {
  const year = now.getUTCFullYear();
  await db
    .insertInto('sequences')
    .values({ kind: prefix, year, value: 0 })
    .onConflict((oc) => oc.columns(['kind', 'year']).doNothing())
    .execute();
  const row = await db
    .updateTable('sequences')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('kind', '=', prefix)
    .where('year', '=', year)
    .returning('value')
    .executeTakeFirstOrThrow();
  return `${prefix}-${year}-${String(row.value).padStart(6, '0')}`;
}
