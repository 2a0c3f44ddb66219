import { HttpError } from '../types.js';

/**
 * `Idempotency-Key` (optional, on the calculator submissions and the due-diligence request): what a client names
 * one submission by, so that sending it again after a lost answer (a dropped connection, a timeout, a reload while
 * it was on its way) gets the stored answer instead of a second record and a second e-mail to the team. Scoped to
 * the user, unique per user and kind of record. Visible ASCII, as header values are; a repeated header (joined
 * with ", " by Node) is refused by the space, and app.ts refuses it by name first.
 */
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export const BAD_IDEMPOTENCY_KEY =
  'The Idempotency-Key header must be 1 to 255 visible ASCII characters, with no spaces.';
export const IDEMPOTENCY_KEY_REUSED =
  'This Idempotency-Key was already used for a different submission: send a new key with a new submission.';

/** The request's key, `undefined` without one; a malformed one is a 400. */
export function idempotencyKeyOf(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (typeof header !== 'string' || !IDEMPOTENCY_KEY.test(header)) {
    throw new HttpError(400, BAD_IDEMPOTENCY_KEY);
  }
  return header;
}

/** A second insert of one user's key: two requests with it at once on PostgreSQL (SQLite runs them in turn). */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
