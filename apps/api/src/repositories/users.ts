import type { Kysely } from 'kysely';
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
 * phone given with the latest link replace the earlier ones.
 */
export async function upsertVerifiedUser(
  db: Kysely<Database>,
  clientId: string,
  details: UserDetails,
  now: Date,
): Promise<User> {
  const existing = await db
    .selectFrom('users')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('email', '=', details.email)
    .where('verified', '=', 1)
    .executeTakeFirst();
  if (existing !== undefined) {
    await db
      .updateTable('users')
      .set({
        first_name: details.first_name,
        last_name: details.last_name,
        phone: details.phone,
      })
      .where('id', '=', existing.id)
      .where('client_id', '=', clientId)
      .execute();
    return { ...existing, ...details };
  }
  const row: User = {
    id: newId(),
    client_id: clientId,
    ...details,
    verified: 1,
    created_at: now.toISOString(),
  };
  await db.insertInto('users').values(row).execute();
  return row;
}
