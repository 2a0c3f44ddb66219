import { sql, type Kysely } from 'kysely';
import { newId } from '../crypto.js';
import type { Dialect } from '../db/connect.js';
import type { Database } from '../db/schema.js';

/** Expired attempts deleted with each new one (and per statement of the hourly purge). */
export const EXPIRED_PER_ATTEMPT = 100;
const PURGE_BATCH = 1_000;

export interface AttemptLimit {
  key: string;
  max: number;
}

/**
 * Counts a login attempt against each key (e-mail, address). Refuses, without counting, when any key already
 * reached its limit within the window. Kept in the database so several instances share the counts.
 *
 * Count and insert are one transaction that no other attempt interleaves with (SQLite has one writer; on
 * PostgreSQL the table is locked for it), so attempts that arrive together cannot all see the same count
 * below the limit and all go ahead: exactly `max` per key and window get through.
 *
 * @returns whether the attempt may go ahead
 */
export async function recordLoginAttempt(
  db: Kysely<Database>,
  dialect: Dialect,
  limits: AttemptLimit[],
  windowMs: number,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - windowMs).toISOString();
  return db.transaction().execute(async (trx) => {
    if (dialect === 'postgres') {
      // A mode that conflicts with itself (plain reads go on): attempts take turns, across instances.
      await sql`lock table login_attempts in share row exclusive mode`.execute(trx);
    }
    // The expired attempts go a batch at a time, the oldest first: all of them at once made the login after a
    // burst pay for deleting the whole burst inside its transaction (409 ms after 100,000: found by the twenty-first
    // session's scale probe). The hourly purge takes what is left ({@link purgeLoginAttempts}); the counts below
    // read only the window, so expired rows never count.
    await deleteExpired(trx, since, EXPIRED_PER_ATTEMPT);
    for (const limit of limits) {
      const row = await trx
        .selectFrom('login_attempts')
        .select((eb) => eb.fn.countAll<string | number>().as('n'))
        .where('key', '=', limit.key)
        .where('at', '>', since)
        .executeTakeFirstOrThrow();
      if (Number(row.n) >= limit.max) return false;
    }
    await trx
      .insertInto('login_attempts')
      .values(limits.map((l) => ({ id: newId(), key: l.key, at: now.toISOString() })))
      .execute();
    return true;
  });
}

/**
 * Deletes the attempts older than the window, a thousand a statement, so the write lock is never held for long
 * (the hourly purge; each login also takes {@link EXPIRED_PER_ATTEMPT}). Returns how many it deleted.
 */
export async function purgeLoginAttempts(
  db: Kysely<Database>,
  windowMs: number,
  now: Date,
): Promise<number> {
  const since = new Date(now.getTime() - windowMs).toISOString();
  let deleted = 0;
  for (;;) {
    const n = await deleteExpired(db, since, PURGE_BATCH);
    deleted += n;
    if (n < PURGE_BATCH) return deleted;
  }
}

/** Deletes at most `limit` attempts made at or before `since`, the oldest first; how many it deleted. */
async function deleteExpired(db: Kysely<Database>, since: string, limit: number): Promise<number> {
  const result = await db
    .deleteFrom('login_attempts')
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('login_attempts')
        .select('id')
        .where('at', '<=', since)
        .orderBy('at')
        .limit(limit),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
