/**
 * Errors that say the database cannot answer just now (stopped, restarting, unreachable, every connection
 * busy, a statement stuck behind a lock past its timeout), not that the request or the code is wrong. The
 * server answers them 503 with `Retry-After`, in words the user can act on, instead of "Internal server
 * error": the same request succeeds once the database is back.
 */

/** What the user is told; the details go to the log. */
export const DATABASE_UNAVAILABLE =
  'The portal cannot reach its database just now. Please try again in a moment.';

/** Seconds a client is asked to wait before trying again. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/**
 * PostgreSQL's SQLSTATEs for it: class 08 (connection exception) is matched by prefix. 57P01–57P03: the
 * server is shutting down, crashed or still starting; 53300: too many connections; 57014: a statement
 * cancelled by `statement_timeout`; 55P03: a lock not available in time. SQLite's SQLITE_BUSY: another
 * connection kept the file locked past `busy_timeout`.
 */
const CODES = new Set([
  '57P01',
  '57P02',
  '57P03',
  '53300',
  '57014',
  '55P03',
  'SQLITE_BUSY',
  // The database's WAL files were replaced under this process (sqlite-files.ts): writes refused until a restart.
  'SQLITE_FILES_REPLACED',
  // Opening a connection (node-postgres): the server is not listening, or cannot be reached. No other
  // outgoing connection is made while a request is answered (mail and forwards go through the outbox).
  'ECONNREFUSED',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

/**
 * A connection to PostgreSQL cut mid-statement (a network fault): a socket error, which names its system
 * call. A request whose own client went away is also ECONNRESET, but as Node's "aborted", without one.
 */
const SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE']);

/** node-postgres and pg-pool say these in plain errors, without a code. */
const MESSAGES = new Set([
  'timeout exceeded when trying to connect',
  'timeout expired',
  'Connection terminated',
  'Connection terminated unexpectedly',
  'Connection terminated due to connection timeout',
  'Client has encountered a connection error and is not queryable',
  'Client was closed and is not queryable',
]);

/** True when `error` (or what it wraps, as `cause`) says the database is unavailable for now. */
export function isDatabaseUnavailable(error: unknown): boolean {
  return someCause(error, ({ code, message, syscall }) => {
    if (typeof code === 'string' && (CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
    if (typeof code === 'string' && SOCKET_CODES.has(code) && typeof syscall === 'string')
      return true;
    return typeof message === 'string' && MESSAGES.has(message);
  });
}

/** Whether `error`, or one of the errors it wraps (as `cause`, five deep at most), passes `test`. */
function someCause(
  error: unknown,
  test: (fields: { code?: unknown; message?: unknown; syscall?: unknown }) => boolean,
): boolean {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return false;
    if (test(current)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * True when SQLite says its file is damaged (`SQLITE_CORRUPT…`, `SQLITE_NOTADB`): pages overwritten inside the file
 * pass the checks at start (only its header is read then) and then fail every statement that reads them (found by
 * the nineteenth session's fault probe: every call, logins too, a 500 "Internal server error" with a stack).
 */
export function isDatabaseDamaged(error: unknown): boolean {
  return someCause(
    error,
    ({ code }) =>
      typeof code === 'string' && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB'),
  );
}

/** What the user is told while the database is damaged. */
export const DATABASE_DAMAGED =
  'The portal cannot read its data just now. Please try again later, or contact the team.';
