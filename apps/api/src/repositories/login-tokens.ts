import { sql, type Kysely } from 'kysely';
import { MINUTE } from '../clock.js';
import { randomToken, sha256 } from '../crypto.js';
import type { Database } from '../db/schema.js';
import type { UserDetails } from './users.js';

export const LOGIN_TOKEN_TTL_MS = 15 * MINUTE;

/** Creates a single-use login token bound to the client and the e-mail; returns the raw token for the link. */
export async function createLoginToken(
  db: Kysely<Database>,
  clientId: string,
  details: UserDetails,
  now: Date,
): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('login_tokens')
    .values({
      hash: sha256(token),
      client_id: clientId,
      ...details,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + LOGIN_TOKEN_TTL_MS).toISOString(),
      used_at: null,
    })
    .execute();
  return token;
}

/**
 * Uses a token: succeeds once, for this client, before it expires. One conditional update both spends it and
 * reads it, so two concurrent uses of the same token end with exactly one winner. (On SQLite a transaction that
 * read first could not write once another connection had committed, and a good link failed with "database is
 * locked"; every transaction that may write now takes the write lock at BEGIN, see db/sqlite-dialect.ts.)
 */
export async function consumeLoginToken(
  db: Kysely<Database>,
  clientId: string,
  token: string,
  now: Date,
): Promise<UserDetails | undefined> {
  return db
    .updateTable('login_tokens')
    .set({ used_at: now.toISOString() })
    .where('hash', '=', sha256(token))
    .where('client_id', '=', clientId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .returning(['email', 'first_name', 'last_name', 'phone'])
    .executeTakeFirst();
}

/**
 * The details a token was asked for with, while it may still be used (this client, unused, unexpired), and the
 * details its e-mail's account holds, if it has one: read only, for the Continue page a link opens (opening it
 * spends nothing; mail scanners open links).
 */
export async function peekLoginToken(
  db: Kysely<Database>,
  clientId: string,
  token: string,
  now: Date,
): Promise<{ given: UserDetails; held?: UserDetails } | undefined> {
  const given = await db
    .selectFrom('login_tokens')
    .select(['email', 'first_name', 'last_name', 'phone'])
    .where('hash', '=', sha256(token))
    .where('client_id', '=', clientId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
  if (given === undefined) return undefined;
  const held = await db
    .selectFrom('users')
    .select(['email', 'first_name', 'last_name', 'phone'])
    .where('client_id', '=', clientId)
    .where('email', '=', given.email)
    // A literal, as in the partial index of verified users.
    .where('verified', '=', sql.lit(1))
    .executeTakeFirst();
  return held === undefined ? { given } : { given, held };
}
