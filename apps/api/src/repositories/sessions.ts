import type { Kysely } from 'kysely';
import { DAY, HOUR, MINUTE } from '../clock.js';
import { randomToken, sha256 } from '../crypto.js';
import type { Database } from '../db/schema.js';
import type { User } from './users.js';

export const SESSION_ABSOLUTE_MS = 30 * DAY;
export const SESSION_IDLE_MS = 12 * HOUR;
/** last_seen_at is written at most this often, so reads do not turn into a write each. */
const TOUCH_EVERY_MS = MINUTE;

/** Starts a session and returns the token for the cookie; only its SHA-256 is stored. */
export async function createSession(
  db: Kysely<Database>,
  clientId: string,
  userId: string,
  now: Date,
): Promise<string> {
  const token = randomToken();
  await db
    .insertInto('sessions')
    .values({
      id: sha256(token),
      client_id: clientId,
      user_id: userId,
      created_at: now.toISOString(),
      last_seen_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
    })
    .execute();
  return token;
}

/**
 * The user of a live session of this client, or `undefined` (unknown, other client, expired or idle too long).
 */
export async function findSessionUser(
  db: Kysely<Database>,
  clientId: string,
  token: string,
  now: Date,
): Promise<User | undefined> {
  const id = sha256(token);
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.last_seen_at',
      'sessions.expires_at',
      'users.id',
      'users.client_id',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.phone',
      'users.verified',
      'users.created_at',
    ])
    .where('sessions.id', '=', id)
    .where('sessions.client_id', '=', clientId)
    .where('users.client_id', '=', clientId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const nowMs = now.getTime();
  const lastSeen = Date.parse(row.last_seen_at);
  if (nowMs >= Date.parse(row.expires_at) || nowMs - lastSeen >= SESSION_IDLE_MS) {
    await db.deleteFrom('sessions').where('id', '=', id).execute();
    return undefined;
  }
  if (nowMs - lastSeen >= TOUCH_EVERY_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('id', '=', id)
      .execute();
  }
  const { last_seen_at: _seen, expires_at: _expires, ...user } = row;
  return user;
}

export async function deleteSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sha256(token)).execute();
}

/** Removes sessions past their absolute or idle limit, and spent login tokens. */
export async function purgeExpired(db: Kysely<Database>, now: Date): Promise<void> {
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  await db
    .deleteFrom('sessions')
    .where((eb) =>
      eb.or([eb('expires_at', '<=', now.toISOString()), eb('last_seen_at', '<=', idleCutoff)]),
    )
    .execute();
  await db.deleteFrom('login_tokens').where('expires_at', '<=', now.toISOString()).execute();
}
