import type { Kysely } from 'kysely';
import { precompiled } from '../db/precompiled.js';
import type { Database } from '../db/schema.js';

const bump = precompiled<'client_id' | 'kind' | 'year', { value: number }>(
  ['client_id', 'kind', 'year'],
  (db, slot) =>
    db
      .updateTable('sequences')
      .set((eb) => ({ value: eb('value', '+', 1) }))
      .where('client_id', '=', slot('client_id'))
      .where('kind', '=', slot('kind'))
      .where('year', '=', slot('year'))
      .returning('value'),
);

/**
 * The client's next reference of a kind for the year, e.g. `BW-2026-000123`. Each client has its own counter
 * per kind and year, so a client's references run 1, 2, 3… whatever other clients submit meanwhile (one
 * counter for everyone let a client read the firm's volume, and another client's activity, from the gaps),
 * and two clients may hold the same reference: it is unique per client only.
 *
 * Call inside the transaction that stores the row: the counter row is locked by the update until commit, so
 * concurrent submissions never share one, and a rolled-back submission gives its number back.
 */
export async function nextReference(
  db: Kysely<Database>,
  clientId: string,
  prefix: string,
  now: Date,
): Promise<string> {
  const year = now.getUTCFullYear();
  // Usually the client's counter for the year exists: one statement. The first of a year creates it; should
  // another transaction create it first (PostgreSQL), the upsert counts on from there.
  const { rows } = await bump(db, { client_id: clientId, kind: prefix, year });
  const value =
    rows[0]?.value ??
    (
      await db
        .insertInto('sequences')
        .values({ client_id: clientId, kind: prefix, year, value: 1 })
        .onConflict((oc) =>
          oc
            .columns(['client_id', 'kind', 'year'])
            .doUpdateSet((eb) => ({ value: eb('sequences.value', '+', 1) })),
        )
        .returning('value')
        .executeTakeFirstOrThrow()
    ).value;
  return `${prefix}-${year}-${String(value).padStart(6, '0')}`;
}
