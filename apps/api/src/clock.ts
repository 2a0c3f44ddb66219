/** The time source. Injected into the app so tests can move time forward without sleeping. */
export type Clock = () => Date;

export const systemClock: Clock = () => new Date();

/** `clock()` plus a number of milliseconds, as an ISO string (the database's timestamp format). */
export function isoAfter(clock: Clock, ms: number): string {
  return new Date(clock().getTime() + ms).toISOString();
}

export const MINUTE = 60_000;
export const HOUR = 60 * MINUTE;
export const DAY = 24 * HOUR;
