import type { Kysely } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database } from '../db/schema.js';

const bump = precompiled<'kind' | 'year', { value: number }>(['kind', 'year'], (db, slot) =>
  db
    .updateTable('sequences')
    .set((eb) => ({ value: eb('value', '+', 1) }))
    .where('kind', '=', slot('kind'))
    .where('year', '=', slot('year'))
    .returning('value'),
);

/**
 * The next reference of a kind for the year, e.g. `BW-2026-000123`. Call inside the transaction that stores
 * the row: the counter row is locked by the update until commit, so concurrent submissions never share one,
 * and a rolled-back submission gives its number back.
 */
export async function nextReference(
  db: Kysely<Database>,
  prefix: string,
  now: Date,
): Promise<string> {
  const year = now.getUTCFullYear();
  // Usually the year's counter exists: one statement. The first of a year creates it; should another
  // transaction create it first (PostgreSQL), the upsert counts on from there.
  const { rows } = await bump(db, { kind: prefix, year });
  const value =
    rows[0]?.value ??
    (
      await db
        .insertInto('sequences')
        .values({ kind: prefix, year, value: 1 })
        .onConflict((oc) =>
          oc
            .columns(['kind', 'year'])
            .doUpdateSet((eb) => ({ value: eb('sequences.value', '+', 1) })),
        )
        .returning('value')
        .executeTakeFirstOrThrow()
    ).value;
  return `${prefix}-${year}-${String(value).padStart(6, '0')}`;
}
