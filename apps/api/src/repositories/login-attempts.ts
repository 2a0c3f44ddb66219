import type { Kysely } from 'kysely';
import { newId } from '../crypto.js';
import type { Database } from '../db/schema.js';

export interface AttemptLimit {
  key: string;
  max: number;
}

/**
 * Counts a login attempt against each key (e-mail, address). Refuses, without counting, when any key already
 * reached its limit within the window. Kept in the database so several instances share the counts.
 *
 * @returns whether the attempt may go ahead
 */
export async function recordLoginAttempt(
  db: Kysely<Database>,
  limits: AttemptLimit[],
  windowMs: number,
  now: Date,
): Promise<boolean> {
  const since = new Date(now.getTime() - windowMs).toISOString();
  await db.deleteFrom('login_attempts').where('at', '<=', since).execute();
  for (const limit of limits) {
    const row = await db
      .selectFrom('login_attempts')
      .select((eb) => eb.fn.countAll<string | number>().as('n'))
      .where('key', '=', limit.key)
      .where('at', '>', since)
      .executeTakeFirstOrThrow();
    if (Number(row.n) >= limit.max) return false;
  }
  await db
    .insertInto('login_attempts')
    .values(limits.map((l) => ({ id: newId(), key: l.key, at: now.toISOString() })))
    .execute();
  return true;
}
