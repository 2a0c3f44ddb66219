import { sql, type Kysely } from 'kysely';
import { newId } from '../crypto.js';
import type { Dialect } from '../db/connect.js';
import type { Database } from '../db/schema.js';

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
    await trx.deleteFrom('login_attempts').where('at', '<=', since).execute();
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
