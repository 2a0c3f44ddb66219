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
  // A transaction PostgreSQL ended for standing idle past idle_in_transaction_session_timeout (connect.ts).
  '25P03',
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
  return someCause(error, saysUnavailable);
}

/** Whether one error (not what it wraps) says the database is unavailable for now. */
function saysUnavailable({ code, message, syscall }: ErrorFields): boolean {
  if (typeof code === 'string' && (CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code))) return true;
  if (typeof code === 'string' && SOCKET_CODES.has(code) && typeof syscall === 'string')
    return true;
  return typeof message === 'string' && MESSAGES.has(message);
}

/** The fields of an error these tests read. */
interface ErrorFields {
  code?: unknown;
  message?: unknown;
  syscall?: unknown;
}

/** Whether `error`, or one of the errors it wraps (as `cause`, five deep at most), passes `test`. */
function someCause(error: unknown, test: (fields: ErrorFields) => boolean): boolean {
  return firstOfCauses(error, (fields) => (test(fields) ? true : undefined)) ?? false;
}

/** What `pick` makes of `error`, or else of the first error it wraps (as `cause`, five deep at most) it picks. */
function firstOfCauses<T>(
  error: unknown,
  pick: (fields: ErrorFields) => T | undefined,
): T | undefined {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const picked = pick(current);
    if (picked !== undefined) return picked;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
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

/** Host and port of a PostgreSQL URL, without the user or password it may hold. */
export function databaseHost(url: string): string {
  try {
    const { hostname, port, searchParams } = new URL(url);
    // No host in the URL: a socket folder given as `?host=`, or node-postgres's default.
    const host = hostname === '' ? (searchParams.get('host') ?? 'localhost') : hostname;
    return `${host}:${port === '' ? '5432' : port}`;
  } catch {
    return 'DATABASE_URL';
  }
}

/** Node's codes for a TLS certificate it does not trust (an SSL connection PostgreSQL accepted). */
const CERTIFICATE_CODE =
  /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER|^ERR_TLS_|^ERR_SSL_/;

/** What is wrong with the setting, in plain words after "PostgreSQL at host:port", and what to do. */
function problemOf(at: string, fields: ErrorFields, user: string | undefined): string | undefined {
  const { code, message } = fields;
  const text = typeof message === 'string' ? message : '';
  const quoted = (pattern: RegExp) => pattern.exec(text)?.[1];
  if (code === '28P01') {
    const user = quoted(/user "(.*)"/);
    return (
      `${at} refused the login${user === undefined ? '' : ` for user "${user}"`} (password authentication ` +
      'failed). DATABASE_URL must give a user and password it accepts.'
    );
  }
  if (code === '28000') {
    // "no pg_hba.conf entry for host …, user …, database …, SSL off", or "role "x" does not exist".
    return (
      `${at} refused the login (${text}). DATABASE_URL must give a user it lets in from this machine ` +
      '(pg_hba.conf).'
    );
  }
  if (code === '3D000') {
    const name = quoted(/database "(.*)"/);
    return (
      `${at} has no database${name === undefined ? '' : ` "${name}"`}. DATABASE_URL must name a database ` +
      'that exists there (the server makes its schema and tables, not the database: createdb).'
    );
  }
  if (code === '42501') {
    // Found by the twenty-sixth session: a user without CREATE on the schema (PostgreSQL 15 gives none on `public`
    // to others than its owner) got a JSON log line with a stack at start, and "Failed: Database migration failed:
    // permission denied for schema public" from the staff tool.
    const who = user === undefined ? 'the user DATABASE_URL gives' : `user "${user}"`;
    const schema = quoted(/^permission denied for schema (.+)$/);
    const database = quoted(/^permission denied for database (.+)$/);
    const grantee = user === undefined ? 'that user' : `"${user}"`;
    const need =
      schema !== undefined
        ? `to create tables in schema "${schema}": make it the schema's owner, or GRANT CREATE ON SCHEMA ` +
          `"${schema}" TO ${grantee}`
        : database !== undefined
          ? `to create the schema DATABASE_SCHEMA names in database "${database}": GRANT CREATE ON DATABASE ` +
            `"${database}" TO ${grantee}, or create the schema with ${grantee} as its owner`
          : "to own the portal's schema and tables, or be granted rights on them (SELECT, INSERT, UPDATE and " +
            'DELETE on every table, USAGE on every sequence: GRANT … ON ALL TABLES IN SCHEMA …, GRANT USAGE ON ALL ' +
            'SEQUENCES IN SCHEMA …)';
    return `${at} refused ${who} a right the portal needs (${text}). It must be allowed ${need}.`;
  }
  // node-postgres's own words, without a code.
  if (/password must be a string/i.test(text)) {
    return `${at} asks for a password, and DATABASE_URL gives none.`;
  }
  if (text === 'The server does not support SSL connections') {
    return (
      `${at} does not accept SSL connections, and DATABASE_URL asks for one (sslmode). Turn SSL on in ` +
      'PostgreSQL, or change sslmode.'
    );
  }
  if (typeof code === 'string' && CERTIFICATE_CODE.test(code)) {
    return (
      `${at} sent a TLS certificate this machine does not trust (${code}). Give PostgreSQL a certificate ` +
      'this machine trusts, or name its authority in DATABASE_URL (sslrootcert).'
    );
  }
  if (!saysUnavailable(fields)) return undefined;
  const reach = 'DATABASE_URL must name a running PostgreSQL server this machine can reach.';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    return `${at} cannot be reached: its host name cannot be resolved (${code}). ${reach}`;
  }
  if (code === 'ECONNREFUSED') {
    return `${at} cannot be reached: nothing accepts connections there (${code}). ${reach}`;
  }
  const reason = typeof code === 'string' && /^E[A-Z]+$/.test(code) ? code : text;
  return `${at} cannot be reached or is not answering (${reason}). ${reach}`;
}

/**
 * Why PostgreSQL at `url` cannot be used, as plain sentences naming its host and port (never the URL's password):
 * it cannot be reached or is not answering, it refused the login, it has no such database, it refused SSL or sent
 * a certificate not trusted here, it refused the user a right the portal needs (to create its tables). Undefined for any other error (a statement that failed is the code's, not the
 * setting's). The server's start and the staff tool say it alike.
 */
export function postgresProblem(url: string, error: unknown): string | undefined {
  const at = `PostgreSQL at ${databaseHost(url)}`;
  const user = databaseUser(url);
  return firstOfCauses(error, (fields) => problemOf(at, fields, user));
}

/** The user a PostgreSQL URL names, if it names one (never its password). */
function databaseUser(url: string): string | undefined {
  try {
    const { username } = new URL(url);
    return username === '' ? undefined : decodeURIComponent(username);
  } catch {
    return undefined;
  }
}
