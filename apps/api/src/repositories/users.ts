import { sql, type Kysely } from 'kysely';
import { newId } from '../crypto.js';
import type { Database, UsersTable } from '../db/schema.js';

export interface UserDetails {
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
}

export type User = UsersTable;

/**
 * Open policy: every login gets its own user record, so an open login never reaches anything stored by an
 * earlier session that merely typed the same e-mail.
 */
export async function createOpenUser(
  db: Kysely<Database>,
  clientId: string,
  details: UserDetails,
  now: Date,
): Promise<User> {
  const row: User = {
    id: newId(),
    client_id: clientId,
    ...details,
    verified: 0,
    created_at: now.toISOString(),
  };
  await db.insertInto('users').values(row).execute();
  return row;
}

/**
 * Magic-link policy: the e-mail was proven, so there is one user record per client and e-mail; the names and
 * phone given with the latest link replace the earlier ones. One statement (insert, or update on the unique
 * index of verified e-mails): two links of one e-mail used at the same moment both log in, on one record,
 * where a look-up then insert let both miss the record and the second insert fail.
 */
export async function upsertVerifiedUser(
  db: Kysely<Database>,
  clientId: string,
  details: UserDetails,
  now: Date,
  /** `held`: an existing account keeps its names and phone (the login link's Continue page offers the choice). */
  { keep = 'given' }: { keep?: 'given' | 'held' } = {},
): Promise<User> {
  const row: User = {
    id: newId(),
    client_id: clientId,
    ...details,
    verified: 1,
    created_at: now.toISOString(),
  };
  return db
    .insertInto('users')
    .values(row)
    .onConflict((oc) =>
      oc
        .columns(['client_id', 'email'])
        // A literal, as in the index: the databases match a partial index only by its own predicate.
        .where('verified', '=', sql.lit(1))
        .doUpdateSet((eb) =>
          keep === 'held'
            ? { first_name: eb.ref('users.first_name') }
            : {
                first_name: eb.ref('excluded.first_name'),
                last_name: eb.ref('excluded.last_name'),
                phone: eb.ref('excluded.phone'),
              },
        ),
    )
    .returningAll()
    .executeTakeFirstOrThrow();
}
