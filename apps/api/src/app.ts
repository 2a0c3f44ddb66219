import type {
  FastifyError,
  FastifyHttpOptions,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import { START_LOCK_WAIT_MS } from './db/migrations.js';
import { EMAIL_ADDRESS } from './email-address.js';
import { type HostPolicy, isAllowedHost } from './allowed-hosts.js';
import type { Config } from './config.js';
import { loggedUrl } from './log-options.js';
import {
  DATABASE_RETRY_AFTER_SECONDS,
  DATABASE_UNAVAILABLE,
  isDatabaseDamaged,
  isDatabaseUnavailable,
  DATABASE_DAMAGED,
} from './db/unavailable.js';
import crossSite, { CROSS_SITE_MESSAGE, isNavigation } from './plugins/app/cross-site.js';
import services from './plugins/app/services.js';
import session, { UNKNOWN_CLIENT } from './plugins/app/session.js';
import staticFiles from './plugins/app/static.js';
import bodyParsers from './plugins/external/body-parsers.js';
import cookie from './plugins/external/cookie.js';
import openapi from './plugins/external/openapi.js';
import security, { securityHeaders } from './plugins/external/security.js';
import activityRoutes from './routes/api/activity.js';
import clientRoutes from './routes/api/client.js';
import contentRoutes from './routes/api/content.js';
import dueDiligenceRoutes, { MULTIPART_ONLY_MESSAGE } from './routes/api/due-diligence.js';
import loginRoutes from './routes/api/login.js';
import submissionRoutes from './routes/api/submissions.js';
import {
  PortalFilesMissing,
  encodePage,
  renderPortalPage,
  type PortalShell,
} from './services/portal-page.js';
import { HttpError } from './types.js';
import {
  countConnections,
  currentTurn,
  noteAnswered,
  noteArrival,
} from './services/arrival-turn.js';
import {
  closeAfterAnswer,
  dropThenClose,
  isClosingAfterAnswer,
} from './services/close-after-answer.js';
import { NO_ROOM_MESSAGE, isOutOfSpace } from './services/disk-space.js';
import { continueWhenRead } from './services/expect-continue.js';
import { escapeHtml, linkFaultPage, linkRefusedPage } from './services/pages.js';
import { PREFIX } from './services/content-rules.js';
import { formatSchemaError, type AjvError } from './services/schema-error.js';
import { shownText } from './services/shown-text.js';
import { emailAddressKeyword, phoneNumberKeyword } from './routes/schemas.js';

export interface AppOptions {
  config: Config;
  /** The time source; tests inject one to expire tokens and sessions without sleeping. */
  clock?: Clock;
  /** Start the outbox polling loop and the hourly purge (the server does; tests drive them). */
  startWorkers?: boolean;
  /** How long a shutdown waits for request bodies still arriving before it cuts them off (SHUTDOWN_BODY_CUTOFF_MS). */
  shutdownBodyCutoffMs?: number;
}

/** How long a shutdown (SIGTERM, SIGINT) waits for the requests in flight before the process ends regardless. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * How long, after a shutdown begins, a request whose body is still arriving (a slow upload) may go on before its
 * connection is cut: the upload is then not stored (nothing of it is kept, and the browser may send it again),
 * and the server ends cleanly within SHUTDOWN_GRACE_MS. Before, a slow upload held the shutdown until the grace
 * ran out, and the process was ended by force with exit code 1 (found by the sixteenth session's fault probe).
 */
export const SHUTDOWN_BODY_CUTOFF_MS = SHUTDOWN_GRACE_MS - 2_000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's built index.html and page preloads, when PORTAL_DIST has them (plugins/app/static.ts). */
    portalShell?: () => Promise<PortalShell>;
  }
}

/**
 * The errors @fastify/static passes on (its own, and those of `send`), by status and message, as plain
 * answers. A path the file server refuses as not canonical (`//`, `/./`, `/../`, a backslash: 403) or as
 * malformed (a NUL: 400) names no file or page, so it is answered as any unknown path is.
 */
const FILE_ERRORS: Record<string, { status: number; message: string } | undefined> = {
  '403 Forbidden': { status: 404, message: 'Not found.' },
  '400 Bad Request': { status: 404, message: 'Not found.' },
  '412 Precondition Failed': {
    status: 412,
    message: 'The file does not meet the request’s If-Match or If-Unmodified-Since condition.',
  },
  '416 Range Not Satisfiable': {
    status: 416,
    message: 'The requested range is outside the file.',
  },
};

/**
 * Errors the checks of every request raise for a request that is malformed in itself: answered 400 whatever its
 * address. Before, on an address no route takes with that method (`POST /api/demo/content#x`), the check's
 * error was answered as "no route" (404/405), and without the security headers, which are set by a hook after
 * these checks (found by the seventeenth session's API probe).
 */
const MALFORMED_REQUESTS = new WeakSet<Error>();

function malformedRequest(message: string, status = 400): HttpError {
  const error = new HttpError(status, message);
  MALFORMED_REQUESTS.add(error);
  return error;
}

/** What a user is told when the data folder refused a file operation (see `isStorageRefusal`). */
export const STORAGE_REFUSED_MESSAGE =
  'The portal cannot store or read its files just now. Please try again in a few minutes.';

/**
 * The codes of a file operation the data folder refused, as the system reports them. EFBIG: a file past the size
 * the process may write (`ulimit -f`, systemd's LimitFSIZE=; found by the eighteenth session's fault probe).
 */
const STORAGE_REFUSALS = new Set([
  'EACCES',
  'EPERM',
  'EROFS',
  'ENOTDIR',
  'EISDIR',
  'EIO',
  'ELOOP',
  'EFBIG',
]);

/** True for a file system call the data folder refused (not a missing file: that is a 404 where it matters). */
function isStorageRefusal(error: unknown): boolean {
  const { code, syscall } = error as { code?: unknown; syscall?: unknown };
  if (typeof syscall !== 'string' || typeof code !== 'string') return false;
  // A folder that cannot be made because a file has its name.
  return STORAGE_REFUSALS.has(code) || (code === 'EEXIST' && syscall === 'mkdir');
}

/** The answer to a request that arrives while the server is shutting down. */
export const SHUTTING_DOWN_MESSAGE = 'The portal is restarting. Please try again in a few seconds.';

const UNSUPPORTED_TYPE_MESSAGE =
  'This content type is not accepted: send JSON (application/json), or multipart/form-data to the due-diligence form.';

/** The calls that take an HTML form's body (the login link's Continue form, the due-diligence form). */
const FORM_ROUTES = new Set(['/api/:client/login/link', '/api/:client/due-diligence']);

/**
 * A hook that refuses a body whose type is not one of `types` (415 with `message`) before anything else is done
 * with the request; a request without a Content-Type goes on (to be refused for its missing body, if it needs one).
 */
function onlyBodyTypes(types: readonly string[], message: string) {
  const accepted = new Set(types);
  return (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    const type = request.headers['content-type']?.split(';', 1)[0]?.trim().toLowerCase();
    if (type !== undefined && !accepted.has(type)) {
      done(new HttpError(415, message));
      return;
    }
    done();
  };
}

/** The JSON calls: JSON only. */
const jsonOnly = onlyBodyTypes(['application/json'], UNSUPPORTED_TYPE_MESSAGE);

/**
 * The login link's form takes its urlencoded body (what the Continue page sends) or JSON; anything else (a
 * multipart body, say) is refused by name rather than read as an empty form.
 */
const loginLinkFormOnly = onlyBodyTypes(
  ['application/x-www-form-urlencoded', 'application/json'],
  'This content type is not accepted: send the login link’s form (token=…) as application/x-www-form-urlencoded.',
);

/**
 * The due-diligence form: multipart only, refused by its type before the body is read (found by the twentieth
 * session's API probe: a body labelled JSON was parsed as JSON first, and refused as not well-formed).
 */
const dueDiligenceFormOnly = onlyBodyTypes(['multipart/form-data'], MULTIPART_ONLY_MESSAGE);

/** The query string of a call that takes no parameters: any parameter is unknown (400). */
const NO_QUERY = {
  type: 'object',
  // Stated although empty: without `properties` the OpenAPI generator reads the schema's own keywords as
  // parameters (a query parameter "type" and one "additionalProperties" on every such call).
  properties: {},
  additionalProperties: false,
} as const;

/** No request of this API nests deeper than a few levels; a body nested deeper than this is refused. */
export const MAX_NESTING = 32;

/**
 * Fastify says "Body is not valid JSON" also when the JSON is fine but holds a key that could pollute
 * prototypes (secure-json-parse refuses those): one message that is true of both.
 */
export const INVALID_JSON_MESSAGE =
  'Invalid body: it is not well-formed JSON, or it uses a key never accepted ("__proto__", or "prototype" inside "constructor").';

/** A JSON call's body sent empty, or not at all. */
const EMPTY_BODY_MESSAGE = 'The body is empty: send a JSON object.';

/** Fastify's own refusals, by code, in plain sentences (its messages are terse: "Unsupported Media Type"). */
const FASTIFY_MESSAGES: Record<string, string | undefined> = {
  FST_ERR_CTP_INVALID_JSON_BODY: INVALID_JSON_MESSAGE,
  FST_ERR_CTP_INVALID_MEDIA_TYPE: UNSUPPORTED_TYPE_MESSAGE,
  FST_ERR_CTP_EMPTY_JSON_BODY: EMPTY_BODY_MESSAGE,
  FST_ERR_CTP_BODY_TOO_LARGE: 'The request body is too large.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The Content-Length header does not match the body.',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'The Content-Type header is missing: say what the body is.',
};

/** How long a connection may stay silent, and how long a whole request may take to arrive. */
export const IDLE_TIMEOUT_MS = 60_000;
export const REQUEST_TIMEOUT_MS = 10 * 60_000;

/** The 408 of a request whose body stopped arriving for IDLE_TIMEOUT_MS (see the server's 'timeout' listener). */
export const STALLED_BODY_MESSAGE =
  'The rest of the request did not arrive in time, so it was not taken: send it again.';
/** The code answerClientError knows that refusal by. */
const STALLED_BODY = 'STALLED_BODY';

/**
 * Logged when a connection is closed because the rest of a body its answer did not wait for (a GET or HEAD with a
 * Content-Length its client never fills, a refusal sent before the body) stopped arriving for IDLE_TIMEOUT_MS.
 */
export const STALLED_AFTER_ANSWER_MESSAGE =
  'The rest of the request’s body stopped arriving after its answer was sent, so the connection was closed.';
/** The code that close is logged with. */
export const STALLED_AFTER_ANSWER = 'STALLED_BODY_AFTER_ANSWER';

/** The router's limit on a path parameter (find-my-way's default, stated so the 404/405 check can use it). */
const MAX_PARAM_LENGTH = 100;

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
  depth: number;
}

const pathOf = (visit: Visit): string => {
  const keys: string[] = [];
  for (let at: Visit | undefined = visit; at !== undefined; at = at.parent) {
    if (at.parent !== undefined) keys.push(at.key);
  }
  return keys.reverse().join('.');
};

/**
 * A UTF-16 surrogate standing alone (JSON's `"\ud800"`): not a character, so no UTF-8 text can hold it (SQLite
 * stored it as invalid UTF-8 bytes, the team's e-mail as U+FFFD: the record and the mail disagreed).
 */
const LONE_SURROGATE = /\p{Cs}/u;
/** An entity tag marked weak (`W/"…"`), which If-Range may not match (RFC 9110 §13.1.5). */
const WEAK_VALIDATOR = /^\s*W\//;

/** Why a string (a key or a value) cannot be taken, as the end of a sentence, or `undefined`. */
function badString(text: string): string | undefined {
  if (text.includes('\u0000')) return 'it contains a NUL character';
  if (LONE_SURROGATE.test(text)) {
    return 'it contains a lone surrogate (a \\uD800 to \\uDFFF escape not in a pair)';
  }
  return undefined;
}

/**
 * The first problem with a parsed query or body, as the message of a 400, or `undefined`: a string (key or
 * value) holding a NUL character (PostgreSQL cannot store it) or a lone surrogate, or nesting deeper than
 * MAX_NESTING. A walk with its own stack, not recursion: a 20 KB body of `[[[[…` is 10,000 levels deep.
 */
/**
 * Whether the query of `url` holds a %-escape that is not one (`%ZZ`, a lone `%`) or escapes bytes that are not
 * UTF-8 (`%E9`): the query parser keeps such text as it is (`%E9` as those three characters), so a search for
 * "caf%E9" would quietly look for the wrong thing, where the same fault in the path is a 400.
 */
function malformedQuery(url: string): boolean {
  const start = url.indexOf('?');
  if (start === -1 || !url.includes('%', start)) return false;
  try {
    for (const piece of url.slice(start + 1).split(/[&=]/)) decodeURIComponent(piece);
    return false;
  } catch {
    return true;
  }
}

/**
 * A call's query before its schema: a %-escape that does not decode is a 400 (as in the path), and a parameter
 * the call does not take is named as sent, where the schema would report a required one missing first (`?id[]=x`
 * is an unknown parameter "id[]", not a missing "id").
 */
function judgeQuery(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  if (malformedQuery(request.url)) {
    done(new HttpError(400, 'Bad request: the address is not well formed.'));
    return;
  }
  const unknown = unknownQueryParameter(request.routeOptions.schema?.querystring, request.query);
  if (unknown !== undefined) {
    done(new HttpError(400, `Unknown query parameter "${shownText(unknown)}".`));
    return;
  }
  done();
}

/**
 * A JSON call sent with no body at all (no Content-Type, nothing after the headers) is told so, as one sent an empty
 * JSON body is, once the session has been asked for: its schema said "it must be an object" (found by the
 * twenty-ninth session's API probe).
 */
function judgeBodyPresent(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (error?: Error) => void,
): void {
  done(request.body === undefined ? new HttpError(400, EMPTY_BODY_MESSAGE) : undefined);
}

/** The first query parameter a call's schema does not take, when it takes no others, or `undefined`. */
function unknownQueryParameter(schema: unknown, query: unknown): string | undefined {
  if (
    typeof schema !== 'object' ||
    schema === null ||
    typeof query !== 'object' ||
    query === null
  ) {
    return undefined;
  }
  const { additionalProperties, properties } = schema as {
    additionalProperties?: unknown;
    properties?: Record<string, unknown>;
  };
  if (additionalProperties !== false) return undefined;
  return Object.keys(query).find(
    (key) => properties === undefined || !Object.hasOwn(properties, key),
  );
}

function findBadText(root: unknown, where: string): string | undefined {
  const stack: Visit[] = [{ value: root, key: '', parent: undefined, depth: 0 }];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    const { value, depth } = visit;
    if (typeof value === 'string') {
      const bad = badString(value);
      if (bad !== undefined) return `Invalid ${where} "${pathOf(visit) || '(body)'}": ${bad}.`;
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    if (depth >= MAX_NESTING) {
      return `Invalid ${where === 'field' ? 'body' : where}: it is nested more than ${MAX_NESTING} levels deep.`;
    }
    // Reversed onto the stack, so the first key is looked at first.
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, inner] = entries[i] as [string, unknown];
      const child: Visit = { value: inner, key, parent: visit, depth: depth + 1 };
      const bad = badString(key);
      if (bad !== undefined) return `Invalid ${where} "${pathOf(child)}": ${bad}.`;
      stack.push(child);
    }
  }
  return undefined;
}

/** Each connection's requests whose answers are not all out yet (pipelined requests are answered in turn). */
const unanswered = new WeakMap<Duplex, Set<ServerResponse>>();
/** Connections whose refusal waits for the answers to the requests before it. */
const refusing = new WeakSet<Duplex>();
/** Connections answered on the socket itself (answerOnSocket), closing: nothing more is written on them. */
const answeredOnSocket = new WeakSet<Duplex>();

/**
 * What a request waits for before it runs: the answers to the requests before it on its connection, all closed.
 * One promise a request, chained to the one before it: with a copy of the pending answers and a listener on each
 * of them, n pipelined requests cost n² (found by the nineteenth session's API probe: 2,000 requests in one write
 * held every other client for 55 s, and the log filled with MaxListenersExceededWarning lines).
 */
const answersBefore = new WeakMap<IncomingMessage, Promise<void>>();
/** Per connection: settles once every answer begun on it so far has closed. */
const answersSoFar = new WeakMap<Duplex, Promise<void>>();

/** Requests one connection may have waiting for their answers (pipelined) before the next is refused. */
export const MAX_PIPELINED = 100;

/**
 * Listeners one response may have for an event before Node warns of a leak. The app and its plugins put four `close`
 * listeners on a response with a body (the answer's tracking, the shutdown's body cut-off and idle close, multipart's
 * clean-up), and Fastify seven more for a file streamed from a handler that returns its reply: a media
 * file asked for with `Content-Length: 0` reached Node's default of ten, and each such request wrote a "possible
 * EventEmitter memory leak" warning and its stack to stderr, outside the log (found by the thirty-second session's
 * header fuzz). A real leak (listeners added per chunk or per retry) still passes twenty soon enough.
 */
const RESPONSE_CLOSE_LISTENERS = 20;

/** What the request past {@link MAX_PIPELINED} is told. */
export const TOO_MANY_PIPELINED_MESSAGE =
  'Too many requests were sent at once on this connection. Send each once the answer before it has come.';

/** Connections refused for pipelining too many requests: the requests after the refusal get no answer. */
const refusedPipelines = new WeakSet<Duplex>();

type RequestListener = (request: IncomingMessage, response: ServerResponse) => void;

/** Per connection: the turn of the event loop in which its last request began to be handled. */
const begunIn = new WeakMap<Duplex, object>();
/** Per connection: requests waiting for a later turn to begin, oldest first. */
const laterTurns = new WeakMap<Duplex, [IncomingMessage, ServerResponse][]>();

/**
 * Begins each request with `begin`, at most one a connection in each turn of the event loop; the next waits for
 * a later turn, so that every other connection is read in between. A request with a body is read by Node only
 * once the answer before it has gone, and that answer, the next request and its answer all ran in one turn: a
 * connection sending thousands of them behind each other (each with a body, which the pipelining limit never
 * saw waiting) held every other client for up to 1.8 s (found by the twentieth session's API probe).
 */
function oneEachTurn(
  request: IncomingMessage,
  response: ServerResponse,
  begin: (request: IncomingMessage, response: ServerResponse) => void,
): void {
  const { socket } = request;
  const queue = laterTurns.get(socket);
  if (queue !== undefined) {
    queue.push([request, response]);
    return;
  }
  if (begunIn.get(socket) !== currentTurn()) {
    begunIn.set(socket, currentTurn());
    begin(request, response);
    return;
  }
  const waiting: [IncomingMessage, ServerResponse][] = [[request, response]];
  laterTurns.set(socket, waiting);
  const next = () => {
    const [first, itsResponse] = waiting.shift() as [IncomingMessage, ServerResponse];
    begunIn.set(socket, currentTurn());
    begin(first, itsResponse);
    if (waiting.length > 0) setImmediate(next);
    else laterTurns.delete(socket);
  };
  setImmediate(next);
}

/** The 503 of the request past MAX_PIPELINED, after which the connection closes. */
function refusePipelined(
  response: ServerResponse,
  headers: Readonly<Record<string, string>>,
): void {
  const body = JSON.stringify({ error: TOO_MANY_PIPELINED_MESSAGE });
  response.writeHead(503, {
    ...headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    'retry-after': '1',
    connection: 'close',
  });
  response.end(body);
}

/**
 * Per connection: how many bytes it had read when it last had no request in flight (every request whole and
 * answered). More read since, with no request begun, is a request line or headers that stopped arriving.
 */
const readAtRest = new WeakMap<Duplex, number>();
/** The code the 408 of a request whose line or headers stopped arriving is known by. */
const STALLED_HEAD = 'STALLED_HEAD';
/**
 * Bytes read at rest that are not yet a request: one empty line (CR LF), which some clients send after a body and
 * which a server ignores (RFC 9112 §2.2). A connection that sent no more is idle, closed without a word at its
 * limit as one that sent nothing; any more (the shortest method is three letters) is a request that stopped.
 */
const STRAY_EMPTY_LINE_BYTES = 2;

/** Per connection: the request answered before its body had all arrived, and its answer's status. */
const bodyAfterAnswer = new WeakMap<Socket, { request: IncomingMessage; status: number }>();

/** Connections an answer has ended (or is ending): the requests behind it on them are not run. */
const endedByAnswer = new WeakSet<Duplex>();
/** Requests answered on their connection itself (a malformed body), never by their handler. */
const answeredForThem = new WeakSet<IncomingMessage>();
/** Each request's reply once the app has it (its first hook), for a refusal written on the socket to log. */
const replies = new WeakMap<IncomingMessage, FastifyReply>();
/**
 * Requests whose refusal was written on their connection and logged there: the fault their handler meets next (the
 * connection ended under a body it was reading) is not logged as another refusal.
 */
const loggedOnSocket = new WeakSet<IncomingMessage>();

/**
 * Logs a routed request whose body was refused on its connection itself (a stalled body's 408, a malformed chunk's
 * 400) as the error handler and Fastify log an answered request: the refusal at info, then `request completed`
 * with its status. Its handler never answers, so neither line was written; a stalled body's 408 was logged as a 400
 * `aborted` instead, a stalled upload's as a malformed form (noted by the thirty-second session).
 */
function logRefusedBody(
  request: IncomingMessage,
  status: number,
  error: Error & { code?: string },
  message: string,
): void {
  const reply = replies.get(request);
  if (reply === undefined) return;
  loggedOnSocket.add(request);
  const context = { method: reply.request.method, url: loggedUrl(reply.request.url), status };
  reply.log.info({ refusal: { code: error.code, message }, request: context }, 'Request refused');
  reply.log.info(
    { res: { statusCode: status }, responseTime: reply.elapsedTime },
    'request completed',
  );
}

/** Whether a request waiting for the answers before it must not be run once they have gone. */
function notToRun(request: IncomingMessage): boolean {
  return (
    answeredForThem.has(request) || endedByAnswer.has(request.socket) || request.socket.destroyed
  );
}

/** Whether an answer ends its connection (`Connection: close`, said by the client or by the answer). */
function endsConnection(response: ServerResponse): boolean {
  return (
    !response.shouldKeepAlive || (response as ServerResponse & { _last?: boolean })._last === true
  );
}

/** Notes a request as being answered until its response closes (sent, or the connection gone). */
function trackAnswer(
  request: IncomingMessage,
  response: ServerResponse,
  /** Runs once the answer has closed, after it counts as answered (one listener for both). */
  afterClose?: () => void,
): void {
  const pending = unanswered.get(request.socket) ?? new Set<ServerResponse>();
  unanswered.set(request.socket, pending);
  noteArrival(request, pending.size);
  const earlier = pending.size > 0 ? answersSoFar.get(request.socket) : undefined;
  pending.add(response);
  const closed = new Promise<void>((resolve) =>
    response.once('close', () => {
      if (endsConnection(response)) endedByAnswer.add(request.socket);
      pending.delete(response);
      noteAnswered(request);
      resolve();
      afterClose?.();
    }),
  );
  if (earlier === undefined) {
    answersSoFar.set(request.socket, closed);
    return;
  }
  answersBefore.set(request, earlier);
  answersSoFar.set(
    request.socket,
    earlier.then(() => closed),
  );
}

/**
 * Requests Node's HTTP parser refuses before any route (a malformed request line or chunk, headers or an
 * address too long, a request too slow to arrive) get the `{ error }` contract too, then the connection closes.
 * When the refused bytes follow requests of the same connection (pipelined) that have all arrived and are still
 * being answered, the refusal waits for their answers: written at once, it would be read as the answer to the
 * first of them, and theirs would be lost with the connection. Should they take longer than a connection may
 * stay silent, the connection is closed without it.
 */
function answerClientError(
  error: Error & { code?: string },
  socket: Duplex,
  headers: Readonly<Record<string, string>>,
): void {
  if (
    error.code === 'ECONNRESET' ||
    socket.destroyed ||
    refusing.has(socket) ||
    answeredOnSocket.has(socket)
  ) {
    return;
  }
  // The request was already answered with `Connection: close` before its body ended (a transfer coding refused,
  // say), and what follows is what the parser cannot read of that body: the answer stands alone, and the
  // connection closes as that answer arranged (found by the eighteenth session's API probe: a second answer, a
  // 400, was written after the 415).
  if (isClosingAfterAnswer(socket)) return;
  const pending = [...(unanswered.get(socket) ?? [])];
  // The bytes refused may be the body of the last request (a malformed chunk), which is then answered here, not
  // by its handler; the complete requests before it are answered first (found by the twentieth session's probe:
  // their answers were lost, a quote stored for one of them with it, and the 400 read as the first one's answer).
  const last = pending.at(-1);
  // Once noted as answered here, it stays so: its body may have ended meanwhile (the rest of a read is parsed after
  // the refusal), and waiting for its answer, which its handler never gives, held the refusal for a minute.
  const refusedBody =
    last !== undefined &&
    !last.headersSent &&
    (!last.req.complete || answeredForThem.has(last.req));
  const before = refusedBody ? pending.slice(0, -1) : pending;
  if (before.length > 0 && before.every((response) => response.req.complete)) {
    if (refusedBody) answeredForThem.add(last.req);
    afterAnswers(socket, before, () => answerClientError(error, socket, headers));
    return;
  }
  const [status, reason, message] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'Request Header Fields Too Large',
          'The request’s headers (or its address) are too long.',
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout', 'The request took too long to arrive.']
        : error.code === STALLED_BODY
          ? [408, 'Request Timeout', STALLED_BODY_MESSAGE]
          : error.code === STALLED_HEAD
            ? [408, 'Request Timeout', 'The request took too long to arrive.']
            : error.code === 'FRAGMENTED_BODY'
              ? [400, 'Bad Request', FRAGMENTED_BODY_MESSAGE]
              : [400, 'Bad Request', 'Bad request: it is not well-formed HTTP.'];
  const start = requestLineOf(error);
  // A HEAD is answered with the headers alone (RFC 9110 §9.3.2), these refusals too.
  const head = start?.method === 'HEAD';
  const page = status === 431 && start !== undefined ? pageOf(start) : undefined;
  if (refusedBody) logRefusedBody(last.req, status, error, message);
  answerOnSocket(socket, headers, status, reason, message, { page, head });
}

/**
 * Runs `then` once the answers to the earlier requests of a connection have gone, reading nothing more from it
 * meanwhile; should they take longer than a connection may stay silent, the connection is closed instead.
 */
function afterAnswers(socket: Duplex, earlier: readonly ServerResponse[], then: () => void): void {
  refusing.add(socket);
  socket.pause();
  const deadline = setTimeout(() => socket.destroy(), IDLE_TIMEOUT_MS);
  void Promise.all(
    earlier.map((response) => new Promise((resolve) => response.once('close', resolve))),
  ).then(() => {
    clearTimeout(deadline);
    refusing.delete(socket);
    then();
  });
}

/** The start of a refused request, from the bytes Node read of it (the first 64 KB at most). */
interface RequestStart {
  method: string;
  /** The path, percent-decoded; `undefined` when it cannot be decoded. */
  path: string | undefined;
  /** Whether the whole request line was read, under 8 KB: then the headers, not the address, were too long. */
  shortLine: boolean;
}

/**
 * The refused request's start, from the read Node was parsing when it refused (`rawPacket`, the first 64 KB at
 * most). That read may hold requests before it (pipelined: they were whole, and answered), so the refused one
 * is the last request line in it; the first was taken, and an API request behind a page got the page, a HEAD
 * behind one a body (found by the twenty-second session's API probe). A read with no request line is the rest of
 * headers that began in an earlier read: a browser's navigation says so in its `Sec-Fetch-Mode` (its large cookies
 * are the usual cause, and it gets the page that says to clear them); anything else gets the JSON.
 */
function requestLineOf(error: Error): RequestStart | undefined {
  const raw = (error as { rawPacket?: unknown }).rawPacket;
  if (!Buffer.isBuffer(raw)) return undefined;
  const text = raw.toString('latin1');
  const lines = [...text.matchAll(/(?:^|\n)([A-Z]{1,20}) (\/[^ ?#\r\n]*)/g)];
  const line = lines.at(-1);
  if (line === undefined) {
    return /(?:^|\n)sec-fetch-mode:[ \t]*navigate[ \t]*\r?\n/i.test(text)
      ? { method: 'GET', path: '/', shortLine: true }
      : undefined;
  }
  let path: string | undefined;
  try {
    path = decodeURIComponent(line[2] ?? '');
  } catch {
    path = undefined;
  }
  const from = line.index + (line[0].startsWith('\n') ? 1 : 0);
  return {
    method: line[1] ?? '',
    path,
    shortLine: text.slice(from, from + 8192).includes('\r\n'),
  };
}

/**
 * The page a person gets for a request too large to take: a GET or HEAD of a path outside /api, /media and
 * /assets (as the router reads it: `/%61pi/…` is /api). Such a request is most likely a person following a long
 * link, or a browser carrying too many cookies: it gets a page, where the `{ error }` JSON was shown raw with no
 * way on (found by the seventeenth session's portal probe). Node keeps only the first 64 KB, which may end before
 * the headers, so whether it is a navigation cannot be told; a script asking for a page gets the page too.
 */
function pageOf(start: RequestStart): { type: string; body: string } | undefined {
  const { method, path, shortLine } = start;
  if (method !== 'GET' && method !== 'HEAD') return undefined;
  if (path === undefined || /^\/(?:api|media|assets)(?:\/|$)/.test(path)) return undefined;
  const first = path.split('/')[1] ?? '';
  const client = PREFIX.test(first) ? first : undefined;
  // Found by the eighteenth session's API probe: a short address with large cookies was told its link was too long.
  return shortLine ? tooLargePage(client) : tooLongPage(client);
}

/**
 * A small page: what happened, and a link on (no script, no data). `client` `null`: the address names no client,
 * and the page links nowhere (the portal's own page for an unknown client does not either: the portal's root is
 * some client's login page, not this person's).
 */
function refusalPage(
  title: string,
  text: string,
  client: string | undefined | null,
): { type: string; body: string } {
  const onward =
    client === null
      ? ''
      : client === undefined
        ? '<p><a href="/">Go to the portal</a></p>'
        : `<p><a href="/${client}/dashboard">Go to the dashboard</a></p>`;
  return {
    type: 'text/html; charset=utf-8',
    body:
      '<!doctype html><html lang="en-GB"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1">' +
      `<title>${title} – Client Hub</title>` +
      '<style>body{margin:0;background:#f5f7fa;color:#1f2a33;font:1rem/1.5 system-ui,sans-serif}' +
      'main{max-width:40rem;margin:0 auto;padding:3rem 1rem}a{color:#0b4f6c}</style></head>' +
      `<body><main><h1>${title}</h1><p>${text}</p>${onward}</main></body></html>`,
  };
}

/** What a page says for an unexpected fault, where the JSON says only "Internal server error". */
const FAULT_IN_WORDS =
  'Something went wrong on our side. Please try again in a moment, or contact the team if it goes on.';

/**
 * The page a person gets who opened an address in the browser (a navigation, not a fetch) that met a fault: the
 * database unavailable or past its timeout, the data folder refusing, a full disk, a shutdown, a limit, or a fault
 * of the code. Found by the thirty-first session's browser-fault probe: a media file or the logo opened in a tab,
 * a page of the portal whose files could not be read, or any page during a restart showed the `{ error }` JSON raw.
 * The message is the JSON's own (an "Internal server error" put in words); "Try again" reloads the same address.
 */
function faultPage(
  status: number,
  message: string,
  client: string | undefined,
): { type: string; body: string } {
  const text = message === 'Internal server error' ? FAULT_IN_WORDS : message;
  const page = refusalPage(
    status === 429
      ? 'Too many requests'
      : status === 413
        ? 'This request is too large'
        : 'This page cannot be shown just now',
    escapeHtml(text),
    client,
  );
  return { ...page, body: page.body.replace('<p><a ', '<p><a href="">Try again</a> · <a ') };
}

/** The page for an address too long to take. */
function tooLongPage(client: string | undefined): { type: string; body: string } {
  return refusalPage(
    'This address is too long',
    'The link you followed is longer than the portal can take. Check the link, or start again from the portal.',
    client,
  );
}

/** The page for a request whose headers (in practice, the browser's cookies for the site) are too large. */
function tooLargePage(client: string | undefined): { type: string; body: string } {
  return refusalPage(
    'This request is too large',
    'Your browser sent more with this request than the portal can take, usually because the cookies it keeps ' +
      'for this site have grown too large. Clear this site’s cookies in your browser’s settings, then try again.',
    client,
  );
}

/**
 * Does for a connection handed over at a CONNECT what Node's server no longer does for it: Node removes its own
 * listeners then, and with them the one for the connection's errors, so a client that reset the connection
 * after a CONNECT ended the whole process with an uncaught `ECONNRESET`; and the one that lets an answer still
 * being streamed on it (a file) go on once the client has read what was sent, so a download before the CONNECT
 * stopped at 16 KB, held for a minute (both found by the twenty-second session's API probe).
 */
function takeOverConnection(socket: Duplex): void {
  socket.on('error', () => socket.destroy());
  socket.on('drain', () => {
    const answer = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (answer && !answer.writableEnded) answer.emit('drain');
  });
}

/**
 * A CONNECT (a proxy tunnel) never reaches Fastify: Node hands it to the server's 'connect' event, and would
 * drop the connection without a word when nothing listens. It gets the 405 any other method gets, with the
 * methods the address does take in `Allow` (none for an address that is not a path, such as `host:443`).
 */
function answerConnect(
  request: IncomingMessage,
  socket: Duplex,
  headers: Readonly<Record<string, string>>,
  allow: string,
): void {
  // Behind requests of the same connection still being answered, the 405 waits for their answers, as a refusal
  // of the parser's does: written at once it was read as the first one's answer, and theirs were lost with the
  // connection, a quote stored and its team e-mail sent for one of them (found by the twenty-second session's API
  // probe).
  const earlier = [...(unanswered.get(socket) ?? [])];
  if (earlier.length > 0) {
    request.pause();
    afterAnswers(socket, earlier, () => answerConnect(request, socket, headers, allow));
    return;
  }
  if (socket.destroyed) return;
  answerOnSocket(
    socket,
    { ...headers, allow },
    405,
    'Method Not Allowed',
    'Method CONNECT is not allowed here.',
  );
  request.resume();
}

/**
 * Writes a whole `{ error }` answer on a raw socket, then closes the connection. `headers` are the security
 * headers every answer carries (and `no-store`, as every error): these answers are written before any hook runs.
 * The connection is ended from our side and what the client still sends is read and dropped for a moment before
 * it is closed: destroyed at once, with the client's unread bytes in it, the system reset the connection, and a
 * client still sending (its long headers) could lose the answer (found by the eighteenth session's API probe).
 */
function answerOnSocket(
  socket: Duplex,
  headers: Readonly<Record<string, string>>,
  status: number,
  reason: string,
  message: string,
  /** A page to send instead of the `{ error }` JSON (a request too large, followed by a person); a HEAD's answer. */
  { page, head = false }: { page?: { type: string; body: string }; head?: boolean } = {},
): void {
  const body = page?.body ?? JSON.stringify({ error: message });
  const type = page?.type ?? 'application/json; charset=utf-8';
  answeredOnSocket.add(socket);
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  // Names capitalised as Node writes its own (`Content-Type`), which some tools read as case-sensitive.
  const lines = Object.entries({ ...headers, 'cache-control': 'no-store' })
    .map(
      ([name, value]) =>
        `${name.replace(/(^|-)[a-z]/g, (start) => start.toUpperCase())}: ${value}\r\n`,
    )
    .join('');
  // Node's parser no longer reads this connection: what arrives is counted and dropped.
  socket.removeAllListeners('data');
  dropThenClose(socket, socket);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: ${type}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n${lines}Connection: close\r\n\r\n${head ? '' : body}`,
  );
}

/**
 * TRUST_PROXY=true: the app's peer is the one proxy in front of it (a load balancer), and the client is the
 * address that proxy appended last to X-Forwarded-For. Hop 0 is the peer; any address before the last one was
 * written by the client itself.
 */
export const trustOneProxy = (_address: string, hop: number): boolean => hop === 0;

/** The scheme and authority of an absolute-form request target (`GET http://host/path`). */
const ABSOLUTE_FORM = /^https?:\/\/[^/?#]*/i;

/**
 * A request target in origin form (`/path?query`): an absolute-form target (what a client sends a proxy, and
 * a server must accept) loses its scheme and authority. The router already matched such a target by its path,
 * but the app reads `request.url` as a path too (no-store on API answers, 405 or 404, the portal's pages).
 */
export function originForm(url: string): string {
  const authority = ABSOLUTE_FORM.exec(url)?.[0];
  if (authority === undefined) return url;
  const rest = url.slice(authority.length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * The request target as the app reads it: in origin form ({@link originForm}), with the percent-encoded letters,
 * digits and `-._~` of its path written as themselves. They mean the same (RFC 3986 §6.2.2.2), and the router
 * decodes them before it matches, so `/%61pi/demo/content` reached the content route while the app's own reading
 * of the path (no-store on API answers, 405 or 404, the portal's pages) took it for something else: a session's
 * content was sent without `Cache-Control: no-store` (found by the twenty-second session's API probe). Other
 * encodings (`%2F`, `%3F`, `%25`…) are left as they are, and so is a path with a malformed one; the query is left
 * as it is.
 */
export function canonicalTarget(url: string): string {
  const target = originForm(url);
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  if (!path.includes('%')) return target;
  // A `%` that starts no escape makes the address malformed (the router refuses it, 400): decoded, `%%361` would
  // become a new escape, `%61`, which the router decodes again (found by the twenty-second session's probe).
  if (/%(?![0-9A-Fa-f]{2})/.test(path)) return target;
  const decoded = path.replace(/%([0-9A-Fa-f]{2})/g, (escape: string, hex: string) => {
    const char = String.fromCharCode(Number.parseInt(hex, 16));
    return /^[A-Za-z0-9\-._~]$/.test(char) ? char : escape;
  });
  return query === -1 ? decoded : decoded + target.slice(query);
}

/** Pieces of a body (the chunks of a chunked one, the reads of any other) past which their average size is judged. */
export const BODY_PIECES_JUDGED = 1024;
/** The smallest average size, in bytes, of the pieces of a body sent in more than that many. */
export const SMALLEST_AVERAGE_PIECE = 256;
export const FRAGMENTED_BODY_MESSAGE =
  'Bad request: the body came in too many small pieces. Send it in larger ones.';

/**
 * Refuses a body sent in thousands of tiny pieces: each chunk of a chunked body is an event of its own (about
 * 10 µs of the event loop), so a body of one-byte chunks costs the server far more than the bytes cost the
 * client: a 60 KB login body took a second and a half, and a 24 MB upload would have taken minutes, every other
 * client waiting (found by the twenty-third session's API probe). Past {@link BODY_PIECES_JUDGED} pieces whose
 * average is under {@link SMALLEST_AVERAGE_PIECE} bytes, the request is refused as a malformed body is (400, after
 * the answers before it; the connection closes), and nothing more of it is read. Browsers send bodies whole, in
 * reads of kilobytes.
 */
function judgePieces(request: IncomingMessage, refuse: (error: Error) => void): void {
  let pieces = 0;
  let bytes = 0;
  let refused = false;
  const push = request.push.bind(request);
  request.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (refused) return false;
    if (chunk !== null && chunk !== undefined) {
      pieces += 1;
      bytes += (chunk as { length: number }).length;
      if (pieces > BODY_PIECES_JUDGED && bytes < pieces * SMALLEST_AVERAGE_PIECE) {
        refused = true;
        refuse(Object.assign(new Error(FRAGMENTED_BODY_MESSAGE), { code: 'FRAGMENTED_BODY' }));
        return false;
      }
    }
    return push(chunk, encoding);
  };
}

/** The most header lines a request may have (Node reads no more than this). */
export const MAX_HEADER_LINES = 500;
export const TOO_MANY_HEADER_LINES_MESSAGE = `The request has too many header lines (at most ${MAX_HEADER_LINES - 1}).`;

/**
 * A Host header's value (RFC 9112 §3.2, RFC 3986 §3.2.2): a host name (letters, digits, `-._~`, the sub-delimiters,
 * %-escapes), or an IP address in brackets, and an optional port. Empty is allowed (RFC 9112 §3.2).
 */
const HOST_VALUE =
  /^(?:\[[0-9A-Za-z:._~!$&'()*+,;=-]+\]|(?:[A-Za-z0-9._~!$&'()*+,;=-]|%[0-9A-Fa-f]{2})*)(?::[0-9]*)?$/;
export const BAD_HOST_MESSAGE =
  'Bad request: the Host header must be a host name or address, with an optional port.';

/** The answer to a request naming a host the server does not answer for (421 Misdirected Request, RFC 9110 §15.5.20). */
export function misdirectedHostMessage(publicOrigin: string): string {
  return `This server does not answer for the host name the request names. Open the portal at ${publicOrigin}.`;
}

/** A request line in a version other than HTTP/1.0 or 1.1 (`HTTP/2.0`, `HTTP/0.9`: Node's parser takes both). */
export const UNSUPPORTED_VERSION_MESSAGE =
  'HTTP version not supported: send the request in HTTP/1.1.';
/** An HTTP/1.0 request with a Transfer-Encoding, which that version does not have (RFC 9112 §6.1). */
export const HTTP10_TRANSFER_ENCODING_MESSAGE =
  'Bad request: HTTP/1.0 has no Transfer-Encoding. Send the body with a Content-Length, or in HTTP/1.1.';

/**
 * Headers a request may carry only once (RFC 9112 §3.2 for Host): of several, Node keeps the first, and a
 * proxy or cache in front may have read another (the answer then meant for another address or body).
 */
const SINGLE_HEADERS: Record<string, string | undefined> = {
  host: 'Host',
  'content-type': 'Content-Type',
  // Two keys would name two submissions at once (Node joins them into one value).
  'idempotency-key': 'Idempotency-Key',
  // Judged by the cross-site check: Node kept the first and dropped the other, where two Origins are joined and
  // refused (found by the twenty-fourth session's API probe: a second, foreign Referer was let through).
  referer: 'Referer',
};

/** The name of a header given more than once that may only be given once, or `undefined`. */
function repeatedSingleHeader(rawHeaders: string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = SINGLE_HEADERS[(rawHeaders[i] ?? '').toLowerCase()];
    if (name === undefined) continue;
    if (seen.has(name)) return name;
    seen.add(name);
  }
  return undefined;
}

/**
 * Sends {@link faultPage} for a GET or HEAD a person opened as a page (see isNavigation), with the headers every
 * answer carries (the portal's CSP, not a media file's) and `no-store`; answers whether it did. Fetches and scripts
 * keep the `{ error }` JSON.
 */
function sendFaultPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>>,
): boolean {
  if (!(request.method === 'GET' || request.method === 'HEAD') || !isNavigation(request))
    return false;
  if (!(status >= 500 || status === 413 || status === 429)) return false;
  const path = (request.url.split('?')[0] ?? '/').split('/');
  const named = /^\/(?:api|media)\//.test(request.url) ? path[2] : path[1];
  const client = named !== undefined && PREFIX.test(named) ? named : undefined;
  const page = faultPage(status, message, client);
  void reply
    .headers(headers)
    .code(status)
    .header('cache-control', 'no-store')
    .type(page.type)
    .serializer(String)
    .send(page.body);
  return true;
}

/**
 * The page a person gets whom the login link (its Continue page or form) or Log out refused: these are opened from
 * a link or posted by the Continue page's own form, in a browser that showed the `{ error }` JSON raw (found by the
 * thirty-second session's browser-fault probe). `undefined` for any other request, a fetch or a fault (5xx, which
 * has its own pages). Each keeps its status:
 * - 404 for an unknown client: a page saying that no portal is there, without the name the address gave (a link
 *   could make the page say anything in it);
 * - the Continue form refused (a body too large, of another type or charset, malformed, from another site): the
 *   message, and that the link was not spent (nothing is, before the form is read);
 * - Log out followed from another site (the CSRF defence): that it did not log out, with the way to the dashboard,
 *   whose Log out does. The refusal itself stays: the session lives on.
 */
function linkRefusalPage(
  request: FastifyRequest,
  status: number,
  message: string,
): { type: string; body: string } | undefined {
  const config = request.routeOptions.config as { page?: boolean; stateChanging?: boolean };
  const link = config.page === true;
  const logout = config.stateChanging === true;
  if (!(link || logout) || status < 400 || status >= 500 || !isNavigation(request)) {
    return undefined;
  }
  if (status === 404 && message === UNKNOWN_CLIENT) {
    return refusalPage(
      'There is no client portal at this address',
      'The link you followed names a client portal that does not exist. Check the link, or ask whoever sent ' +
        'it for the right address.',
      null,
    );
  }
  if (link) return { type: 'text/html; charset=utf-8', body: linkRefusedPage(message) };
  // Log out's other refusals (a prefetch, an image) are of requests no one sees the answer to.
  if (message !== CROSS_SITE_MESSAGE) return undefined;
  const { client } = request.params as { client?: string };
  return refusalPage(
    'You have not been logged out',
    'You followed a Log out link from another site, and the portal does not let another site log you out, so ' +
      'nothing has changed. To log out, go to the dashboard and choose Log out there.',
    client !== undefined && PREFIX.test(client) ? client : undefined,
  );
}

/**
 * A person who opened an address no page has (`/DEMO/dashboard`, `/demo%2fdashboard`, `//x`, a malformed
 * `/demo/%E0%A4%A`) sees the portal's own 404 page, not JSON shown raw: the page without any data, which finds
 * out for itself that there is no such page or client. Scripts and fetches (not navigating), the API, media and
 * assets keep the `{ error }` answer. Answers whether it took the request; `headers` are for answers made before
 * any hook (the router's refusals), which would otherwise go without them.
 */
function sendMissingPage(
  request: FastifyRequest,
  reply: FastifyReply,
  status = 404,
  headers: Record<string, string> = { 'cache-control': 'no-store' },
): boolean {
  const shell = request.server.portalShell;
  const first = (request.url.split('?')[0] ?? '/').split('/')[1] ?? '';
  if (
    !(request.method === 'GET' || request.method === 'HEAD') ||
    shell === undefined ||
    ['api', 'media', 'assets'].includes(first) ||
    !isNavigation(request)
  ) {
    return false;
  }
  shell()
    .then((loaded) =>
      reply.headers(headers).code(status).type('text/html; charset=utf-8').send(loaded.html),
    )
    .catch((error: unknown) => reply.send(error));
  return true;
}

/** Fastify's own options for this app (the server and the tests use the same). */
export function serverOptions(config: Config): FastifyHttpOptions<Server> {
  const refusalHeaders = {
    ...securityHeaders(config.publicUrl.protocol === 'https:'),
    'cache-control': 'no-store',
  };
  return {
    // Trusting every hop (Fastify's `true`) would take the leftmost X-Forwarded-For entry, which the client
    // writes itself: each login attempt could name a new address and pass the per-address limit.
    trustProxy: config.trustProxy ? trustOneProxy : false,
    bodyLimit: 64 * 1024,
    // A client that stops sending (mid-body, say) is answered 408 after a minute of silence, and no request may
    // take more than ten minutes to arrive (a 20 MB upload at a quarter of a megabit a second); Fastify's
    // defaults wait for ever, holding the socket and a half-written upload.
    connectionTimeout: IDLE_TIMEOUT_MS,
    requestTimeout: REQUEST_TIMEOUT_MS,
    // Start-up may wait for another process's SQLite lock (START_LOCK_WAIT_MS) and then seed the demo content:
    // past Fastify's 10 s default, that wait ended in "Plugin did not start in time" instead of its own message.
    pluginTimeout: START_LOCK_WAIT_MS + 60_000,
    clientErrorHandler: (error, socket) => answerClientError(error, socket, refusalHeaders),
    rewriteUrl: (request) => canonicalTarget(request.url ?? '/'),
    // Node would answer a missing Host with an empty 400; the hook below gives it the `{ error }` contract.
    http: { requireHostHeader: false },
    // While closing, requests are answered by the app's own hook (503 in the `{ error }` contract).
    return503OnClosing: false,
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        allErrors: false,
        allowUnionTypes: true,
      },
      // `format: "email"` with the lengths mail servers hold to (64 before the @, 63 a label).
      // `x-phone-number`: a phone field's check, which reads its digits as ASCII (routes/schemas.ts).
      // `x-email-address`: an e-mail field's check, `format: "email"` on the address without invisible characters.
      onCreate: (ajv) => {
        ajv.addFormat('email', EMAIL_ADDRESS);
        ajv.addKeyword(phoneNumberKeyword);
        ajv.addKeyword(emailAddressKeyword);
      },
    },
    schemaErrorFormatter: (errors, dataVar) => formatSchemaError(errors as AjvError[], dataVar),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised before routing (a path with bad percent-encoding) keep the `{ error }` contract.
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as FastifyReply;
      const status =
        typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
          ? error.statusCode
          : 400;
      // Not the error itself: its message quotes the whole address, a login link's token with it.
      request.log.info(
        {
          code: error.code,
          request: { method: request.method, url: loggedUrl(request.url), status },
        },
        'Request refused by the router',
      );
      // Answered before any hook runs (no onRequest, no onSend): the headers every answer carries, and the
      // no-store every error carries, are set here or not at all.
      // A person who opened a malformed address sees the portal's 404 page, as for any address no page has.
      if (sendMissingPage(request, reply, status === 414 ? 414 : 404, refusalHeaders)) return;
      void reply
        .headers(refusalHeaders)
        .code(status)
        .type('application/json; charset=utf-8')
        .send({
          error:
            status === 414
              ? 'The address is too long.'
              : 'Bad request: the address is not well formed.',
        });
    },
  };
}

/** The whole app as a plugin: infrastructure, services, routes, error handling. */
async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  await fastify.register(
    fp(
      (instance: FastifyInstance) => {
        instance.decorate('config', opts.config);
        instance.decorate('clock', opts.clock ?? systemClock);
      },
      { name: 'config' },
    ),
  );

  /** The security headers of every answer (plugins/external/security.ts), for answers made before its hook. */
  const everyAnswer = securityHeaders(opts.config.publicUrl.protocol === 'https:');
  const hostPolicy: HostPolicy = {
    publicHostname: opts.config.publicUrl.hostname,
    allowedHosts: opts.config.allowedHosts,
  };
  const misdirectedMessage = misdirectedHostMessage(opts.config.publicUrl.origin);
  fastify.server.on('connect', (request: IncomingMessage, socket: Duplex) => {
    takeOverConnection(socket);
    const target = canonicalTarget(request.url ?? '');
    answerConnect(request, socket, everyAnswer, target.startsWith('/') ? allowedAt(target) : '');
  });
  // Requests that came in together share one check of other connections' commits (arrival-turn.ts).
  countConnections(fastify.server);
  // A client may end its side of the connection once its request is sent (`printf … | nc`, a half-close), and
  // still read the answer. Node's default dropped the requests not yet answered and ended the connection, so a
  // quote or due-diligence request was stored and its team e-mail sent with no answer to the client, who would
  // send it again; and a page, whose answer is never ready at once, got nothing (found by the twentieth session's
  // API probe). Node's server then ends the connection after the answer to the last request.
  (fastify.server as typeof fastify.server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen =
    true;
  // Node keeps the first `maxHeadersCount` header lines and drops the rest without a word: at its default, 2,000,
  // a second Host or Content-Type, or a cross-site Origin, after 2,000 short lines went unseen by the checks that
  // refuse them (found by the twenty-second session's API probe). A request that reaches the count is refused
  // instead (431, below), so no line goes unread; browsers send a few dozen.
  fastify.server.maxHeadersCount = MAX_HEADER_LINES;
  // Each request is tracked until answered; past MAX_PIPELINED waiting on one connection, the next is refused
  // without Fastify building it, and the connection closes after that answer (found by the nineteenth session's
  // probe: 5,000 requests in one write were all built in one turn of the event loop, holding every other client
  // for 1.5–1.9 s). Browsers do not pipeline; a client that does is told to send each after the answer before it.
  const handlers = fastify.server.listeners('request') as RequestListener[];
  fastify.server.removeAllListeners('request');
  fastify.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    response.setMaxListeners(RESPONSE_CLOSE_LISTENERS);
    trackAnswer(request, response, () => {
      const { socket } = request;
      // Answered before its body has all arrived (a GET that declared one and never reads it, a refusal before
      // the body): Node reads and drops the rest, and meanwhile gives the connection its keep-alive limit
      // (Fastify's 72 s), not the idle one, as if it were idle between requests. A client that declared ten bytes
      // and sent three held the connection that long for nothing, whatever the idle limit (found by the
      // thirty-third session's probe). It is not idle: the request is still arriving. So it gets the idle limit,
      // reset by each byte that does arrive (a body sent in full is still read, and the connection kept); at the
      // limit the connection closes (the 'timeout' listener below: its answer has gone, no other can be given).
      if (
        response.writableFinished &&
        !request.complete &&
        !socket.destroyed &&
        typeof socket.setTimeout === 'function'
      ) {
        const idle = fastify.server.timeout;
        if (idle > 0) socket.setTimeout(idle);
        bodyAfterAnswer.set(socket, { request, status: response.statusCode });
      }
      // The connection is at rest once this request is whole and answered, and none after it has begun.
      const atRest = () => {
        if (!socket.destroyed && (unanswered.get(socket)?.size ?? 0) === 0) {
          readAtRest.set(socket, socket.bytesRead);
        }
      };
      if (request.complete) atRest();
      else request.once('end', atRest);
    });
    if (
      request.headers['transfer-encoding'] !== undefined ||
      request.headers['content-length'] !== undefined
    )
      judgePieces(request, (error) => answerClientError(error, request.socket, everyAnswer));
    const { socket } = request;
    // A request arriving once an answer has ended its connection is never answered, so never run.
    if (refusedPipelines.has(socket) || endedByAnswer.has(socket)) return;
    if ((unanswered.get(socket)?.size ?? 0) > MAX_PIPELINED) {
      refusedPipelines.add(socket);
      refusePipelined(response, everyAnswer);
      return;
    }
    oneEachTurn(request, response, (waited, itsResponse) => {
      for (const handler of handlers) handler.call(fastify.server, waited, itsResponse);
    });
  });

  // Every route pattern, to tell "wrong method" (405) from "no such path" (404).
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  fastify.addHook('onRoute', (route) => {
    // A client's calls (and the OpenAPI document, a call too) refuse query parameters they do not take, as their
    // bodies refuse unknown fields; the logout is a link a person follows, and works whatever is appended to it.
    const call = route.url.startsWith('/api/:client') || route.url === '/api/openapi.json';
    if (call && route.schema?.querystring === undefined && !route.url.endsWith('/logout')) {
      route.schema = { ...route.schema, querystring: NO_QUERY };
    }
    // Each call's query judged as a whole before its schema looks at it, once the session has been asked for
    // (the route's own preValidation): the query must decode, and a parameter the call does not take is named.
    if (call && route.config?.page !== true && !route.url.endsWith('/logout')) {
      route.preValidation = [...[route.preValidation ?? []].flat(), judgeQuery];
    }
    // JSON bodies only, but for the two forms: the app parses urlencoded and multipart bodies for them, and a
    // page of any site can send those without a preflight (string fields would pass the schema).
    if (
      [route.method].flat().includes('POST') &&
      route.url.startsWith('/api/:client') &&
      !FORM_ROUTES.has(route.url)
    ) {
      route.onRequest = [jsonOnly, ...[route.onRequest ?? []].flat()];
      if (route.schema?.body !== undefined) {
        route.preValidation = [...[route.preValidation ?? []].flat(), judgeBodyPresent];
      }
    }
    if ([route.method].flat().includes('POST') && route.url === '/api/:client/login/link') {
      route.onRequest = [loginLinkFormOnly, ...[route.onRequest ?? []].flat()];
    }
    if ([route.method].flat().includes('POST') && route.url === '/api/:client/due-diligence') {
      route.onRequest = [dueDiligenceFormOnly, ...[route.onRequest ?? []].flat()];
    }
    if (route.url.includes('*')) return;
    // A parameter longer than the router takes matches no route: no 405 for it, a 404.
    const pattern = new RegExp(
      `^${route.url.replace(/:[^/]+/g, `[^/]{1,${MAX_PARAM_LENGTH}}`)}/?$`,
    );
    const methods = [route.method].flat();
    routes.push({ pattern, methods });
  });

  /** The methods a known /api or /media path takes (none for any other path, or an unknown one). */
  const methodsAt = (url: string): string[] =>
    url === '/api' || url.startsWith('/api/') || url.startsWith('/media/')
      ? [...new Set(routes.filter((r) => r.pattern.test(url)).flatMap((r) => r.methods))]
      : [];
  /** `Allow` for `OPTIONS *`: every method some address takes (the portal's pages GET and HEAD), and OPTIONS. */
  const serverMethods = (): string =>
    [...new Set(['GET', 'HEAD', ...routes.flatMap((r) => r.methods), 'OPTIONS'])].join(', ');
  /** `Allow` for a CONNECT to a path: a known /api or /media path's methods; the portal's pages and files GET and HEAD. */
  function allowedAt(target: string): string {
    const url = target.split(/[?#]/)[0] ?? '/';
    const methods = methodsAt(url);
    if (methods.length > 0) return methods.join(', ');
    return url === '/api' || url.startsWith('/api/') || url.startsWith('/media/')
      ? ''
      : 'GET, HEAD';
  }

  /**
   * A request no route takes: 405 (with Allow) on a known /api or /media path whatever the method, else 404.
   * With every answer's headers: when it is answered from the error handler, the request may have been refused
   * before the hook that sets them ran (found by the seventeenth session's API probe).
   */
  const answerNoRoute = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    void reply.headers(everyAnswer);
    const url = request.url.split('?')[0] ?? '/';
    const allowed = methodsAt(url);
    // A route that takes the method and found nothing (a media file not there calls this) is a 404.
    if (allowed.length > 0 && !allowed.includes(request.method)) {
      return reply
        .code(405)
        .header('allow', allowed.join(', '))
        .send({ error: `Method ${request.method} is not allowed here.` });
    }
    return reply.code(404).send({ error: 'Not found.' });
  };

  // Text with NUL characters, and absurdly nested input, is refused before it reaches a handler.
  // Hooks with callbacks rather than async functions: they run on every request and never wait for anything.
  // Pages are not refused as JSON (a browser would show it raw): the portal's pages (served for any other
  // path) make their API calls through the app, where this check applies; the login link's pages judge the
  // token themselves (it is only ever hashed, never stored or sent to the database as it is).
  fastify.addHook('preValidation', (request, _reply, done) => {
    if (
      request.routeOptions.config.page === true ||
      ((request.is404 || request.routeOptions.url === '/*') && !/^\/api(\/|$|\?)/.test(request.url))
    ) {
      done();
      return;
    }
    for (const [where, value] of [
      ['query parameter', request.query],
      ['field', request.body],
    ] as const) {
      const bad = findBadText(value, where);
      if (bad !== undefined) {
        done(new HttpError(400, bad));
        return;
      }
    }
    done();
  });

  // HTTP/1.1 requires Host (RFC 9112 §3.2): refused here, as JSON, rather than by Node with an empty body.
  // So is a second Host (the same section) or Content-Type, which Node would silently drop.
  // Once the server is shutting down, a request still arriving on a kept-alive connection is told so in the
  // `{ error }` contract, with when to try again (another instance, or this one restarted, takes it); Fastify's own
  // answer was `{"error":"Service Unavailable","message":…,"statusCode":503}` with no Retry-After.
  let closing = false;
  // The requests with a body being answered, to cut off those whose body is still arriving once a shutdown has
  // waited SHUTDOWN_BODY_CUTOFF_MS for them (GETs are not tracked: they have arrived whole).
  const withBodies = new Set<IncomingMessage>();
  fastify.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (
      request.headers['content-length'] === undefined &&
      request.headers['transfer-encoding'] === undefined
    ) {
      return;
    }
    withBodies.add(request);
    response.once('close', () => withBodies.delete(request));
  });
  // The open connections, to cut off at the same moment those whose request's headers are still arriving (a
  // client sending them a line a second held the close until the process was ended by force: found by the
  // eighteenth session's fault probe). Node leaves such a connection open: it is not idle, yet has no request.
  const connections = new Set<Duplex>();
  fastify.server.on('connection', (socket: Duplex) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  // A connection silent for IDLE_TIMEOUT_MS is cut off, but only once what is waiting for it has been read. Found
  // by the twenty-fourth session's fault probe: after the process had been frozen longer than that (SIGSTOP, a
  // paused VM), the event loop's first phase on waking runs the expired timers, before its poll phase reads what
  // arrived meanwhile, so a client whose upload had finished during the freeze was reset. With a listener of its
  // own Node leaves the socket be; the decision waits for the check phase (after the poll), and a socket that has
  // read or written since is spared: its timer runs again from that activity.
  // Nor is a connection whose requests have all been read and are being answered: the wait is the server's (a
  // write waiting for the database's lock, a slow PostgreSQL), not a silent client's, and cutting it lost the
  // answer with no word (found by the twenty-sixth session: an HTTP/1.0 GET on a loaded machine got nothing). Its
  // timer runs again from the answer; the request timeout still bounds the whole.
  fastify.server.on('timeout', (socket: Socket) => {
    const { bytesRead, bytesWritten } = socket;
    setImmediate(() => {
      if (socket.bytesRead !== bytesRead || socket.bytesWritten !== bytesWritten) return;
      const owed = [...(unanswered.get(socket) ?? [])];
      // (Once an answer has begun, a client that stops reading it is silent again: no slow-read hold.)
      if (owed.length > 0 && owed.every(({ req, headersSent }) => req.complete && !headersSent))
        return;
      // A request whose body stopped arriving, with nothing of any answer on the connection begun, is told so
      // (408, as HTTP has it) before the connection closes, after the answers to the requests before it; its
      // handler's read of the body ends as the connection does. It was closed without a word (found by the
      // thirty-first session's fault probe). A client that stops reading an answer, or in the middle of its
      // headers, is still cut off.
      const last = owed.at(-1);
      if (
        last !== undefined &&
        !last.req.complete &&
        owed.every(({ headersSent }) => !headersSent)
      ) {
        const error = Object.assign(new Error(STALLED_BODY_MESSAGE), { code: STALLED_BODY });
        answerClientError(error, socket, everyAnswer);
        return;
      }
      // A request line or headers that stopped arriving (bytes read since the connection was last at rest, and no
      // request begun from them): told so, 408, as a body that stops is, rather than closed without a word (carried
      // as "no 408 for a partial request line" since the eighteenth session; found again by the thirty-third).
      // Bytes read in the same read as the request before them are not seen: such a connection is closed as before.
      const after = bodyAfterAnswer.get(socket);
      const bodyLeft = after !== undefined && !after.request.complete;
      if (
        owed.length === 0 &&
        !bodyLeft &&
        socket.bytesRead - (readAtRest.get(socket) ?? 0) > STRAY_EMPTY_LINE_BYTES
      ) {
        const error = Object.assign(new Error('The request took too long to arrive.'), {
          code: STALLED_HEAD,
        });
        answerClientError(error, socket, everyAnswer);
        return;
      }
      // The body of a request already answered stopped arriving (see the 'request' listener above): logged once,
      // as the stalled body's 408 is, and closed.
      if (owed.length === 0 && after !== undefined && bodyLeft) {
        const log = replies.get(after.request)?.log ?? fastify.log;
        const { method, url } = after.request;
        log.info(
          {
            refusal: { code: STALLED_AFTER_ANSWER, message: STALLED_AFTER_ANSWER_MESSAGE },
            request: { method, url: loggedUrl(url ?? '/'), status: after.status },
          },
          'Connection closed',
        );
      }
      socket.destroy();
    });
  });
  let cutoff: NodeJS.Timeout | undefined;
  fastify.addHook('preClose', (done) => {
    closing = true;
    cutoff = setTimeout(() => {
      for (const request of withBodies) if (!request.complete) request.socket.destroy();
      for (const socket of connections) {
        if ((unanswered.get(socket)?.size ?? 0) === 0) socket.destroy();
      }
    }, opts.shutdownBodyCutoffMs ?? SHUTDOWN_BODY_CUTOFF_MS);
    cutoff.unref();
    done();
  });
  fastify.addHook('onClose', (_, done) => {
    clearTimeout(cutoff);
    done();
  });
  // Once closing, a kept-alive connection whose last request has been answered is closed: the close closes only the
  // connections idle when it begins, so one whose request was in flight then stayed open, idle, until the cut-off,
  // and every SIGTERM with a browser connected took 8 s (found by the thirty-first session's crash probe). A request
  // already arriving on it is still answered (503 above) first.
  fastify.server.on('request', (_request: IncomingMessage, response: ServerResponse) => {
    response.once('close', () => {
      if (closing) setImmediate(() => fastify.server.closeIdleConnections());
    });
  });
  // Pipelined requests (sent on one connection before the first answer) are answered in order by Node, but were
  // run at once: one behind a logout was answered with the ended session (found by the eighteenth session's API
  // probe). Each now runs once the answers before it have gone, and sees what they did. Browsers do not pipeline.
  // And one behind an answer that ended the connection (a request saying `Connection: close`, an answer that
  // closes it) is not run at all: its answer could never be sent, and a quote stored or a logout done for it would
  // go unconfirmed (RFC 9112 §9.6; found by the twentieth session's probe of this session's changes). Nor is one
  // whose malformed body is answered on the connection itself (`answerClientError`).
  fastify.addHook('onRequest', (request, reply, done) => {
    replies.set(request.raw, reply);
    const before = answersBefore.get(request.raw);
    if (before === undefined) {
      done();
      return;
    }
    answersBefore.delete(request.raw);
    void before.then(() => {
      if (notToRun(request.raw)) void reply.hijack();
      else done();
    });
  });
  fastify.addHook('onRequest', (request, reply, done) => {
    // Log out still runs, a moment's work: refused, it left the browser logged in (found by the thirty-first
    // session's browser-fault probe). It clears the cookie even once the database has gone (routes/api/login.ts).
    const logout =
      (request.routeOptions.config as { stateChanging?: boolean }).stateChanging === true;
    if (closing && logout) void reply.header('connection', 'close');
    if (closing && !logout) {
      void reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
        .header('connection', 'close')
        .header('cache-control', 'no-store');
      // The login link's Continue, a form a person posted, gets its own page (the link is not spent).
      if (request.routeOptions.config.page === true) {
        void reply
          .headers(everyAnswer)
          .type('text/html; charset=utf-8')
          .send(linkFaultPage(SHUTTING_DOWN_MESSAGE));
        return;
      }
      if (sendFaultPage(request, reply, 503, SHUTTING_DOWN_MESSAGE, everyAnswer)) return;
      void reply.send({ error: SHUTTING_DOWN_MESSAGE });
      return;
    }
    // Node's parser takes `HTTP/0.9` and `HTTP/2.0` in a request line as well as 1.0 and 1.1, and reads such a
    // request's body and keeps its connection as it would a 1.1 one's; and it reads an HTTP/1.0 request's body by
    // its Transfer-Encoding, which HTTP/1.0 does not have. A proxy in front that reads a 1.0 request as 1.0 takes
    // such a body for none, and the body (`0\r\n\r\n`, or a whole request inside a chunk) for the next request:
    // what it forwards and what the app reads differ. RFC 9112 §6.1: such framing is faulty, and the connection
    // closes after the answer; §2.6: another major version is a 505. Found by the thirtieth session's probe.
    const { httpVersionMajor, httpVersionMinor } = request.raw;
    if (httpVersionMajor !== 1 || (httpVersionMinor !== 0 && httpVersionMinor !== 1)) {
      void reply.header('connection', 'close');
      done(malformedRequest(UNSUPPORTED_VERSION_MESSAGE, 505));
      return;
    }
    if (httpVersionMinor === 0 && request.headers['transfer-encoding'] !== undefined) {
      void reply.header('connection', 'close');
      done(malformedRequest(HTTP10_TRANSFER_ENCODING_MESSAGE));
      return;
    }
    const { host } = request.headers;
    if (request.raw.httpVersion === '1.1' && host === undefined) {
      done(malformedRequest('Bad request: the Host header is missing.'));
      return;
    }
    // RFC 9112 §3.2: a Host that is no host name or address (and port) is a 400, as a missing or repeated one is.
    // Node takes any value, and the app compares it with a request's Origin (`cross-site.ts`) and logs it: `a b`,
    // `x@evil.example`, `a/b` or `<script>` were all taken (found by the thirtieth session's probe).
    if (host !== undefined && !HOST_VALUE.test(host)) {
      done(malformedRequest(BAD_HOST_MESSAGE));
      return;
    }
    // A name the server does not answer for (DNS rebinding: `allowed-hosts.ts`). The name the app goes by is
    // `request.host`: behind a trusted proxy, the X-Forwarded-Host the proxy wrote.
    if (!isAllowedHost(request.host, hostPolicy)) {
      done(malformedRequest(misdirectedMessage, 421));
      return;
    }
    // A fragment never leaves the browser (RFC 9112 §3.2): one sent is a malformed address, not the start of a
    // query (`/api/demo/content#x` would otherwise be refused as an unknown query parameter "x").
    // `*` (the asterisk form) is a target for OPTIONS alone (RFC 9112 §3.2.4): `GET *` was routed as the root and
    // redirected to a client's login page (found by the twenty-third session's API probe).
    if (!request.url.startsWith('/') && request.method !== 'OPTIONS') {
      done(malformedRequest('Bad request: the address must be a path starting with /.'));
      return;
    }
    // `OPTIONS *` asks about the server as a whole (RFC 9110 §9.3.7): it was a 404, as for an unknown address
    // (carried as "OPTIONS * 404"). It is a 200 with no content and `Allow` naming every method some address takes,
    // OPTIONS for this one; no route is added for it (the route table is what the fuzz and tenancy tests walk).
    if (request.url === '*') {
      void reply
        .code(200)
        .headers(everyAnswer)
        .header('allow', serverMethods())
        .header('cache-control', 'no-store')
        .send();
      return;
    }
    if (request.originalUrl.includes('#')) {
      done(malformedRequest('Bad request: the address has a fragment (#…); send it without one.'));
      return;
    }
    if (request.raw.rawHeaders.length >= 2 * MAX_HEADER_LINES) {
      done(malformedRequest(TOO_MANY_HEADER_LINES_MESSAGE, 431));
      return;
    }
    const repeated = repeatedSingleHeader(request.raw.rawHeaders);
    if (repeated !== undefined) {
      done(malformedRequest(`Bad request: the ${repeated} header is given more than once.`));
      return;
    }
    // Files are sent with weak ETags, and send let a weak one satisfy If-Range. RFC 9110 §13.1.5 compares
    // If-Range strongly, so a weak validator never matches: the whole file, not a part of another version.
    const ifRange = request.headers['if-range'];
    if (typeof ifRange === 'string' && WEAK_VALIDATOR.test(ifRange))
      delete request.raw.headers.range;
    // send (as the `fresh` module) skipped If-None-Match and If-Modified-Since under a request's `Cache-Control:
    // no-cache`, so a file the client holds came back whole (200), or a part of it (206) under a Range. That directive
    // asks caches to check with the origin, and the origin is this server: it evaluates the conditions whatever the
    // request's Cache-Control says (RFC 9110 §13.2.1), If-None-Match before any Range (§13.2.2), and answers 304
    // (found by the thirty-second session's review). Nothing else in the app reads a request's Cache-Control.
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      request.headers['cache-control'] !== undefined &&
      (request.headers['if-none-match'] !== undefined ||
        request.headers['if-modified-since'] !== undefined)
    )
      delete request.raw.headers['cache-control'];
    done();
  });
  // 100 Continue only once the app reads the body: what it refuses first is refused without it.
  continueWhenRead(fastify.server);
  // An Expect other than 100-continue cannot be met: 417 with `{ error }` (Node's own answer has no body).
  // Tracked like every answer: it ends the connection, so a request pipelined behind it is not run (found by the
  // twenty-third session's API probe: written around the tracking, it let a quote behind it be stored, its answer
  // never sent).
  fastify.server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    trackAnswer(request, response);
    const body = JSON.stringify({
      error: 'The Expect header cannot be met (only 100-continue is).',
    });
    response.writeHead(417, {
      ...everyAnswer,
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-store',
      connection: 'close',
    });
    response.end(body);
    // Its body is never read: what the parser cannot read of it (a chunked body that is not) must not be answered
    // again, with a 400 written after this 417 (found by the thirty-second session's header fuzz), and a client still
    // sending it must not lose this answer to a reset.
    closeAfterAnswer(request, response);
  });

  // Bodies are read as sent: a compressed body (Content-Encoding, or a transfer coding besides chunked)
  // would be parsed as garbage, so it is refused up front with a clear 415.
  fastify.addHook('onRequest', (request, _reply, done) => {
    const { 'content-encoding': contentEncoding, 'transfer-encoding': transferEncoding } =
      request.headers;
    if (contentEncoding === undefined && transferEncoding === undefined) {
      done();
      return;
    }
    const codings = (header: string | undefined) =>
      (header ?? '')
        .split(',')
        .map((coding) => coding.trim().toLowerCase())
        .filter((coding) => coding !== '');
    const unsupported = [
      ...codings(contentEncoding).filter((coding) => coding !== 'identity'),
      ...codings(transferEncoding).filter((coding) => coding !== 'chunked'),
    ];
    if (unsupported.length > 0) {
      done(
        new HttpError(
          415,
          `Compressed request bodies are not accepted (${unsupported
            .slice(0, 3)
            .map((coding) => coding.slice(0, 20))
            .join(', ')}): send the body as it is.`,
        ),
      );
      return;
    }
    done();
  });

  // A request asking to switch protocols (`Upgrade: websocket`, `h2c`) is answered in HTTP/1.1, and the
  // connection then closed: with no one taking the upgrade, Node's parser reads nothing more on that connection,
  // so a request pipelined behind it went unanswered on a connection said to be kept alive (found by the
  // nineteenth session's API probe).
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.headers.upgrade !== undefined) void reply.header('connection', 'close');
    done(null, payload);
  });

  // API answers carry personal data: no shared or browser cache keeps them. No error is kept either, even
  // where a route had already said its answer is cacheable: a media file not (yet) on this instance must not
  // stay a 404 for a year in every cache on the way (`/media/…` sets `immutable` before it looks).
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (
      reply.statusCode >= 400 ||
      (request.url.startsWith('/api/') && !reply.hasHeader('cache-control'))
    ) {
      void reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });

  /** Whether the damaged database has been said in the log (once a process). */
  let saidDamaged = false;
  // Set before any plugin adds routes: a route keeps the error handler in force when it was added.
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    // Fastify refuses a QUERY without a Content-Type before the not-found handler runs; no route takes QUERY,
    // so it is answered as any other method no route takes (405 on a known path), not in Fastify's words.
    if (error.code === 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE' && request.is404) {
      return answerNoRoute(request, reply);
    }
    // No route takes the request, and its body (or a check of it) was refused on the way: the answer is that
    // no route takes it (405 on a known path, else 404), whatever the body, not the body's fault, which no
    // route would have read (a POST to a GET-only path was a 405 with a valid JSON body and a 400 with a broken
    // one). A body over the limit stays a 413: the connection is closed before the rest of it is read.
    // A request that is itself malformed (no Host, a fragment, a header given twice) is a 400 whatever its
    // address: no route could have taken it.
    if (
      request.is404 &&
      (error.statusCode ?? 500) < 500 &&
      error.statusCode !== 413 &&
      !MALFORMED_REQUESTS.has(error)
    ) {
      return answerNoRoute(request, reply);
    }
    // The files' errors (@fastify/static) in the `{ error }` contract, in plain words, and never cached.
    const fileError =
      error instanceof HttpError || error.code !== undefined
        ? undefined
        : FILE_ERRORS[`${String(error.statusCode)} ${error.message}`];
    if (fileError !== undefined) {
      if (fileError.status === 404 && sendMissingPage(request, reply)) return reply;
      const { 'Content-Range': contentRange } =
        (error as { headers?: Record<string, string> }).headers ?? {};
      if (fileError.status === 416 && contentRange !== undefined) {
        void reply.header('content-range', contentRange);
      }
      return reply
        .code(fileError.status)
        .header('cache-control', 'no-store')
        .type('application/json; charset=utf-8')
        .send({ error: fileError.message });
    }
    // A full disk (the file system, SQLite or PostgreSQL) where a write found no room past the free-space floor's
    // check: a 507 in the floor's words, which the user can retry later, not a fault's "Internal server error".
    const full = !(error instanceof HttpError) && isOutOfSpace(error);
    // The database stopped, restarting or stuck past its timeouts (db/unavailable.ts): nothing was stored, and
    // the same request works once it is back, so a 503 saying so.
    const unavailable = !full && !(error instanceof HttpError) && isDatabaseUnavailable(error);
    // The data folder refused a file operation (its rights, a read-only disk, a file where a folder should be):
    // the operator's to fix, and the same request works then. A 503 saying so, not "Internal server error"
    // (found by the seventeenth session's fault probe); the log has the error.
    const storage =
      !full && !unavailable && !(error instanceof HttpError) && isStorageRefusal(error);
    // The database file damaged inside: the operator must restore it (said once in the log, at error level).
    const damaged =
      !full &&
      !unavailable &&
      !storage &&
      !(error instanceof HttpError) &&
      isDatabaseDamaged(error);
    if (damaged && !saidDamaged) {
      saidDamaged = true;
      request.log.error(
        { err: error },
        'The database file is damaged (SQLite says so): every call that reads the damaged part fails with a 503. ' +
          'Stop the server and restore DATA_DIR/portal.sqlite from a backup (`sqlite3 portal.sqlite "pragma ' +
          'integrity_check"` shows the damage). Said once; each such request is logged at warn.',
      );
    }
    const status = full
      ? 507
      : unavailable || storage || damaged
        ? 503
        : typeof error.statusCode === 'number' && error.statusCode >= 400
          ? error.statusCode
          : 500;
    if (unavailable || storage) {
      void reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    }
    // Refused before its body has all arrived (over the limit, unreadable): the connection closes after the
    // answer, but only once the client can have read it (a client still sending would otherwise get a reset).
    if (!request.raw.complete && !reply.sent) {
      void reply.header('connection', 'close');
      closeAfterAnswer(request.raw, reply.raw);
    }
    // Refused by a hook that runs before the security headers' own (a second Host header): set them here.
    if (!reply.hasHeader('x-frame-options')) void reply.headers(everyAnswer);
    // The address as the request lines show it: a refused login link's token must not be in the log either
    // (found by the eighteenth session's API probe: a link sent with two Host headers was logged whole).
    const context = { method: request.method, url: loggedUrl(request.url), status };
    // An HttpError is a refusal the app chose, in words meant for the user, whatever its status (507 when the
    // disk is nearly full); any other error past 500 is a fault, shown only as "Internal server error".
    const deliberate = error instanceof HttpError;
    // A fault of the surroundings the answer names (a full disk, the database or the data folder unavailable or
    // damaged) is logged at warn, as a refusal, with its code and message but no stack: it is no fault of the
    // code (found by the nineteenth session's fault probe: a full disk's 507 was an error with a stack).
    const surroundings = full || unavailable || storage || damaged;
    if (loggedOnSocket.has(request.raw)) {
      // Answered and logged on the connection (logRefusedBody): this is only its handler meeting the end of it.
    } else if (status >= 500 && !deliberate && !surroundings) {
      request.log.error({ err: error, request: context }, 'Request failed');
    } else if (surroundings) {
      const { code, message } = error as { code?: unknown; message?: unknown };
      request.log.warn({ fault: { code, message }, request: context }, 'Request refused');
    } else {
      // A refusal is no fault of the code: what was refused and why, without a stack (found by the twentieth
      // session's API probe: every 401 of a flood of requests wrote one, thousands of lines of them).
      // A request the server cannot read (an HTTP version it does not speak: 505) is the client's fault, logged as
      // any other 4xx refusal; it was logged at warn, as the server's own refusals past 500 are (carried since the
      // thirtieth session).
      const { code, message } = error as { code?: unknown; message?: unknown };
      request.log[status >= 500 && !MALFORMED_REQUESTS.has(error) ? 'warn' : 'info'](
        { refusal: { code, message }, request: context },
        'Request refused',
      );
    }
    const message = full
      ? NO_ROOM_MESSAGE
      : unavailable
        ? DATABASE_UNAVAILABLE
        : storage
          ? STORAGE_REFUSED_MESSAGE
          : damaged
            ? DATABASE_DAMAGED
            : status >= 500 && !deliberate
              ? 'Internal server error'
              : (FASTIFY_MESSAGES[error.code] ?? error.message);
    // A login link's pages are opened by a person, in a browser that would show the JSON raw (a full disk's 507
    // on Continue: found by the thirty-first session's fault probe). Their own refusals are pages already.
    if (request.routeOptions.config.page === true && status >= 500) {
      return reply
        .code(status)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .serializer(String)
        .send(linkFaultPage(message === 'Internal server error' ? FAULT_IN_WORDS : message));
    }
    const refusal = linkRefusalPage(request, status, message);
    if (refusal !== undefined) {
      return reply
        .headers(everyAnswer)
        .code(status)
        .header('cache-control', 'no-store')
        .type(refusal.type)
        .serializer(String)
        .send(refusal.body);
    }
    // Any other address a person opened as a page (a media file, the portal's pages, the sample report) likewise.
    if (sendFaultPage(request, reply, status, message, everyAnswer)) return reply;
    return (
      reply
        .code(status)
        .type('application/json; charset=utf-8')
        // Not the route's response schema: some routes' error pages are HTML strings (the login link).
        .serializer(JSON.stringify)
        .send({ error: message })
    );
  });

  await fastify.register(security);
  await fastify.register(cookie);
  await fastify.register(bodyParsers);
  await fastify.register(services, { startWorkers: opts.startWorkers ?? false });
  await fastify.register(session);
  await fastify.register(crossSite);
  await fastify.register(openapi);

  // Synchronous on purpose: returning the reply from an async handler makes Fastify await it as a thenable.
  fastify.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = url === '/api' || url.startsWith('/api/');
    // A media file's address is a route too: a POST to it is a 405 naming GET and HEAD, as on /api.
    if (isApi || url.startsWith('/media/')) {
      void answerNoRoute(request, reply);
      return;
    }
    const first = url.split('/')[1] ?? '';
    const shell = fastify.portalShell;
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      shell !== undefined &&
      !['media', 'assets'].includes(first) &&
      PREFIX.test(first)
    ) {
      // The page carries its first answers (who is logged in, the page's data): personal, so never stored.
      shell()
        .then((loaded) =>
          renderPortalPage(fastify, loaded, { url: request.url, cookie: request.headers.cookie }),
        )
        .then(async ({ html, found, location }) => {
          if (location !== undefined) return { location };
          // An unknown client or page is a 404: a person opening it gets the page (the portal shows its 404
          // page), a script or a fetch the `{ error }` every other 404 is.
          if (!found && !isNavigation(request)) return undefined;
          return { found, ...(await encodePage(html, request.headers['accept-encoding'])) };
        })
        .then((page) => {
          if (page !== undefined && 'location' in page && page.location !== undefined) {
            // Who is logged in decides it: never stored.
            return reply.header('cache-control', 'no-store').redirect(page.location, 302);
          }
          if (page === undefined) {
            return reply
              .code(404)
              .header('cache-control', 'no-store')
              .send({ error: 'Not found.' });
          }
          const { body, encoding, found } = page;
          if (encoding !== undefined) void reply.header('content-encoding', encoding);
          return reply
            .code(found ? 200 : 404)
            .header('cache-control', 'no-store')
            .header('vary', 'Accept-Encoding')
            .type('text/html; charset=utf-8')
            .send(body);
        })
        .catch((error: unknown) => {
          if (!(error instanceof PortalFilesMissing)) return reply.send(error);
          request.log.warn(
            { portalDist: fastify.config.portalDist },
            'The portal’s index.html is missing',
          );
          void reply
            .code(503)
            .header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS))
            .header('cache-control', 'no-store');
          if (!isNavigation(request)) return reply.send({ error: error.message });
          const page = refusalPage('The portal is being updated', error.message, undefined);
          return reply.type(page.type).send(page.body);
        });
      return;
    }
    if (sendMissingPage(request, reply)) return;
    void reply.code(404).send({ error: 'Not found.' });
  });

  // A JSON API: text/plain bodies (what a cross-site "simple" form can send) are not accepted at all.
  fastify.removeContentTypeParser('text/plain');
  const toDefaultLogin = (_request: FastifyRequest, reply: FastifyReply) =>
    reply.redirect(`/${fastify.config.defaultClient}/login`, 302);
  fastify.get('/', { schema: { hide: true } }, toDefaultLogin);
  // The portal's shell has no page of its own: opened by name (a habit, an old bookmark) it was the raw shell,
  // whose router took "index.html" for a client and ended on /index.html/dashboard, a 404 (found by the
  // seventeenth session's portal probe). It goes where / goes.
  fastify.get('/index.html', { schema: { hide: true } }, toDefaultLogin);

  await fastify.register(clientRoutes);
  await fastify.register(loginRoutes);
  await fastify.register(contentRoutes);
  await fastify.register(activityRoutes);
  await fastify.register(submissionRoutes);
  await fastify.register(dueDiligenceRoutes);
  await fastify.register(staticFiles);
}

export default fp(app, { name: 'portal-api' });
