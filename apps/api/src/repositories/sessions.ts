import type { CompiledQuery, Kysely } from 'kysely';
import { DAY, HOUR, MINUTE } from '../clock.js';
import { randomToken, sha256 } from '../crypto.js';
import type { Dialect } from '../db/connect.js';
import { committedReadsOf, type SharedCheck } from '../db/committed-reads.js';
import type { Database } from '../db/schema.js';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { isOutOfSpace } from '../services/disk-space.js';
import { codeOf, storageProblem } from '../storage-error.js';
import { lockedLoginPolicy, toClient, type Client, type ClientRow } from './clients.js';
import { createOpenUser, type User, type UserDetails } from './users.js';

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

/** Thrown inside the open-login transaction to roll it back when the client is no longer open. */
class NoLongerOpen extends Error {}

/**
 * An open login: a new user record and its session, in one transaction that reads the client's policy itself
 * (see lockedLoginPolicy). The request read the client as open before it got here; when staff switched it to
 * magic-link meanwhile, nothing is stored and `undefined` is returned (the caller answers as a magic-link
 * client does). The policy used to be taken from the request's earlier read: a login racing the switch wrote
 * its unproven session after the switch had ended the others, and was told it was logged in.
 */
export async function startOpenSession(
  db: Kysely<Database>,
  dialect: Dialect,
  clientId: string,
  details: UserDetails,
  now: Date,
): Promise<string | undefined> {
  try {
    return await db.transaction().execute(async (trx) => {
      // The write first: on SQLite it takes the write lock, so the policy read next is the latest one.
      const user = await createOpenUser(trx, clientId, details, now);
      if ((await lockedLoginPolicy(trx, dialect, clientId)) !== 'open') throw new NoLongerOpen();
      return createSession(trx, clientId, user.id, now);
    });
  } catch (error) {
    if (error instanceof NoLongerOpen) return undefined;
    throw error;
  }
}

/** A client and, when the request carried the token of a live session of that client, its user. */
export interface ClientSession {
  client: Client;
  user: User | undefined;
}

/** Placeholders the lookup is compiled with, replaced by each call's values (positions found once). */
const PREFIX_SLOT = '\u0000prefix';
const SESSION_SLOT = '\u0000session';

interface Lookup {
  compiled: CompiledQuery<LookupRow>;
  prefixAt: number;
  sessionAt: number;
}
/** Only what a request needs: the user's client is the client (the join says so). */
type LookupRow = ClientRow & {
  session_last_seen_at: string | null;
  session_expires_at: string | null;
} & { [K in Exclude<keyof User, 'client_id'> as `user_${K}`]: User[K] | null };

/** The lookup compiled once per database (the SQL differs by dialect), then run with new parameters. */
const lookups = new WeakMap<Kysely<Database>, Lookup>();

function compileLookup(db: Kysely<Database>): Lookup {
  const compiled = db
    .selectFrom('clients')
    .leftJoin('sessions', (join) =>
      join.on('sessions.id', '=', SESSION_SLOT).onRef('sessions.client_id', '=', 'clients.id'),
    )
    .leftJoin('users', (join) =>
      join.onRef('users.id', '=', 'sessions.user_id').onRef('users.client_id', '=', 'clients.id'),
    )
    .select([
      'clients.id',
      'clients.prefix',
      'clients.name',
      'clients.branding',
      'clients.login_policy',
      'clients.contact_phone',
      'clients.contact_email',
      'clients.content_version',
      'sessions.last_seen_at as session_last_seen_at',
      'sessions.expires_at as session_expires_at',
      'users.id as user_id',
      'users.email as user_email',
      'users.first_name as user_first_name',
      'users.last_name as user_last_name',
      'users.phone as user_phone',
      'users.verified as user_verified',
      'users.created_at as user_created_at',
    ])
    .where('clients.prefix', '=', PREFIX_SLOT)
    .compile();
  const prefixAt = compiled.parameters.indexOf(PREFIX_SLOT);
  const sessionAt = compiled.parameters.indexOf(SESSION_SLOT);
  if (prefixAt < 0 || sessionAt < 0 || compiled.parameters.length !== 2) {
    throw new Error('The client and session lookup did not compile to its two parameters');
  }
  return { compiled, prefixAt, sessionAt };
}

/** A column of the joined user row: NOT NULL in the table, so null only if the join itself went wrong. */
function joined<T>(value: T | null, column: keyof User): T {
  if (value === null) throw new Error(`users.${column} is null in a joined session row`);
  return value;
}

/**
 * The client with this prefix (`undefined` when there is none) and, when `sessionId` (the SHA-256 of the
 * cookie's token) is given, the user of a live session of that client: one indexed query (client by prefix,
 * session by id, user by id), built and compiled once, as the database holds them now, so that a logout, an
 * expiry or a content import by any instance counts at once (on SQLite the answer is reused until anything is
 * written by anyone: committed-reads.ts). A session of another client, an unknown one, one past
 * its absolute or idle limit, or an open login's (e-mail not proven) on a client that is no longer open has
 * no user; an expired one is deleted, and a live one's last_seen_at is moved
 * on at most once a minute.
 */
export async function findClientSession(
  db: Kysely<Database>,
  prefix: string,
  sessionId: string | undefined,
  now: Date,
  /** The check of other connections' commits this request may share (services/arrival-turn.ts). */
  shared?: SharedCheck,
): Promise<ClientSession | undefined> {
  let lookup = lookups.get(db);
  if (lookup === undefined) {
    lookup = compileLookup(db);
    lookups.set(db, lookup);
  }
  const id = sessionId ?? null;
  // On SQLite the answer is kept until this process writes to one of its three tables, or another connection
  // commits anything (committed-reads.ts): a run of reads, or of quotes, activity and mails between them, costs
  // one data-version check each instead of this query, and still sees every change at once. What is kept is what
  // the row resolves to (frozen: the same objects serve every request until the next change).
  const cache = committedReadsOf<Resolved | null>(db as Kysely<unknown>, 'client-session', [
    'clients',
    'sessions',
    'users',
  ]);
  const key = id === null ? prefix : `${prefix}\u0000${id}`;
  let resolved = cache?.get(key, shared);
  if (resolved === undefined) {
    const mark = cache?.mark(shared);
    const parameters: unknown[] = [];
    parameters[lookup.prefixAt] = prefix;
    parameters[lookup.sessionAt] = id;
    const { rows } = await db.executeQuery<LookupRow>({ ...lookup.compiled, parameters });
    const row = rows[0];
    resolved = row === undefined ? null : resolve(row);
    cache?.set(key, resolved, mark, shared);
  }
  if (resolved === null) return undefined;
  const { client, session, user } = resolved;
  if (id === null || session === undefined || user === undefined) {
    return { client, user: undefined };
  }
  // A session of an open login (its e-mail never proven) counts only while the client's policy is open: one
  // started while staff switched the client to magic-link (`client update` ends those it finds) is not let in.
  if (client.loginPolicy !== 'open' && user.verified !== 1) {
    return { client, user: undefined };
  }
  const nowMs = now.getTime();
  // Neither write below is what the request came for: one the database cannot take just now (a full disk,
  // read-only storage, its files replaced, a lock held past the wait) lets the request go on. Found by the
  // thirty-first session's fault probe: on a full disk every read of a session last seen over a minute before
  // was a 507 "cannot store this just now", so no page of the portal could be read by anyone logged in. An
  // expired session is no one's whether or not its row goes now (the hourly purge takes it); a session not moved
  // on can only run out sooner, the safe way.
  if (nowMs >= session.expiresAt || nowMs - session.lastSeenAt >= SESSION_IDLE_MS) {
    await db.deleteFrom('sessions').where('id', '=', id).execute().catch(unlessNoWrite);
    return { client, user: undefined };
  }
  if (nowMs - session.lastSeenAt >= TOUCH_EVERY_MS) {
    await db
      .updateTable('sessions')
      .set({ last_seen_at: now.toISOString() })
      .where('id', '=', id)
      .execute()
      .catch(unlessNoWrite);
  }
  return { client, user };
}

/** Rethrows an error unless it says the database takes no write just now (see findClientSession). */
function unlessNoWrite(error: unknown): undefined {
  if (
    isOutOfSpace(error) ||
    storageProblem(codeOf(error)) !== undefined ||
    isDatabaseUnavailable(error)
  )
    return undefined;
  throw error;
}

/** A lookup's row as the request needs it: the client, and the session's times and user when it has one. */
interface Resolved {
  client: Client;
  /** When the session expires and when it was last seen (ms since the epoch); absent without a session. */
  session: { expiresAt: number; lastSeenAt: number } | undefined;
  user: User | undefined;
}

function resolve(row: LookupRow): Resolved {
  const client = toClient(row);
  Object.freeze(client.branding);
  Object.freeze(client);
  if (row.user_id === null || row.session_last_seen_at === null) {
    return { client, session: undefined, user: undefined };
  }
  const user: User = Object.freeze({
    id: row.user_id,
    client_id: client.id,
    email: joined(row.user_email, 'email'),
    first_name: joined(row.user_first_name, 'first_name'),
    last_name: joined(row.user_last_name, 'last_name'),
    phone: joined(row.user_phone, 'phone'),
    verified: joined(row.user_verified, 'verified'),
    created_at: joined(row.user_created_at, 'created_at'),
  });
  const session = {
    // A session without an expiry is no session (the column is NOT NULL: this is the join's null).
    expiresAt:
      row.session_expires_at === null
        ? Number.NEGATIVE_INFINITY
        : Date.parse(row.session_expires_at),
    lastSeenAt: Date.parse(row.session_last_seen_at),
  };
  return { client, session, user };
}

export async function deleteSession(db: Kysely<Database>, token: string): Promise<void> {
  await db.deleteFrom('sessions').where('id', '=', sha256(token)).execute();
}

/**
 * Ends the session of this token if it belongs to this client, whether or not it lets anyone in right now (an
 * open login's session while the client is magic-link would count again once it is open); whether one ended.
 */
export async function deleteClientSession(
  db: Kysely<Database>,
  clientId: string,
  token: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('id', '=', sha256(token))
    .where('client_id', '=', clientId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Whether a session of this token exists at all (of any client, live or not yet purged). */
export async function sessionExists(db: Kysely<Database>, token: string): Promise<boolean> {
  const row = await db
    .selectFrom('sessions')
    .select('id')
    .where('id', '=', sha256(token))
    .executeTakeFirst();
  return row !== undefined;
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
