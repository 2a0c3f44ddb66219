import { maxHeaderSize, type IncomingMessage, type Server } from 'node:http';
import { Socket } from 'node:net';
import { SharedCheck } from '../db/committed-reads.js';

/**
 * Requests that came in together share one check of other connections' commits (db/committed-reads.ts).
 *
 * On SQLite each request's session lookup is answered from memory until anything is written to the database,
 * and whether another connection (another instance, the staff tool) has committed since is one
 * `PRAGMA data_version`: a read lock taken and let go, with three system calls. Under load that check was the
 * largest single cost of a cached GET. A turn lets the requests that arrived at the same moment share it.
 *
 * Why that is exact, not merely close: Node reads requests from the network only when the event loop's poll
 * returns, each connection once per return; it runs each connection's callbacks (and their promises) to the
 * end before the next, and it reaches the check phase (setImmediate) before it polls again. A turn lasts from
 * its first use to the next check phase, so it spans at most one poll. A request that arrives in a turn, on a
 * connection that had no answer pending and whose last answer did not go out in this turn, was sent before
 * that poll returned: its bytes were there when the poll said the connection had something to read. A check
 * made in the turn is made after that poll returned (by a request that arrived in it), so it is at least as
 * new as the moment each such request was sent, and the database as it was at the check is a correct answer
 * to every one of them (a commit before a request was sent is seen; a commit after is concurrent with it).
 *
 * A request with a body is judged (its session looked up) once its body has arrived, which may be many polls,
 * even minutes, after its headers: a check of the turn its headers came in would answer it with the database as
 * it was before the rest was sent (a session logged out on another instance, or ended by the staff tool, before
 * the body's last byte was sent, used to store a quote and mail the team). It shares its turn's check only when
 * it is judged still within that turn with the whole of it read (a calculator's POST, headers and body sent in
 * one write): then every byte of it came in that poll's first read of its connection, since nothing of an earlier
 * request is left on the connection (the rules below) and the request is smaller than one read
 * ({@link MAX_SHARING_BODY_BYTES} of body at most, and no more header bytes than Node's limit; libuv reads a
 * connection again within one poll only after a read that filled its whole 64 KiB buffer), so every byte was
 * there when the poll returned, as for a request without a body.
 *
 * Requests that cannot be shown to have arrived that way check for themselves:
 * - a request with a body judged in a later turn than its headers came in, or not yet wholly read when judged
 *   (an upload's session is looked up before its body is read), or with a body of an unknown length (chunked) or
 *   over {@link MAX_SHARING_BODY_BYTES};
 * - a request behind another on the same connection (pipelined, or sent after an answer that went out in this
 *   turn): its bytes may have been read after the poll returned (libuv goes on reading a connection, within
 *   the same poll, while its reads fill the whole buffer);
 * - every later request on a connection whose answer went out before its request's body had all arrived
 *   (Node reads and drops the rest of that body, and the next request may follow it in the same read);
 * - any request while the server holds {@link MAX_SHARING_CONNECTIONS} connections or more: libuv polls again,
 *   within the same poll phase, when one poll returns 1,024 ready descriptors;
 * - an injected request (no connection: tests and tools).
 */

/** Below libuv's 1,024 events a poll, with room for the descriptors that are not connections. */
export const MAX_SHARING_CONNECTIONS = 900;

/**
 * The largest body a request may share its turn's check with (see above): with Node's header limit (16 KiB by
 * default, `http.maxHeaderSize`), well within the 64 KiB a connection is read by at a time.
 */
export const MAX_SHARING_BODY_BYTES = 8 * 1024;

/** The bytes libuv reads from a connection at a time: a request smaller than this is read whole by one read. */
const READ_BYTES = 64 * 1024;

let turn: SharedCheck | undefined;

const endTurn = () => {
  turn = undefined;
};

/**
 * The present turn of the event loop (from a poll to the check phase after it): the same object until the next
 * check phase. Also what app.ts tells one connection's requests apart by, to begin at most one a turn.
 */
export function currentTurn(): SharedCheck {
  if (turn === undefined) {
    turn = new SharedCheck();
    setImmediate(endTurn).unref();
  }
  return turn;
}

/** The turn a request arrived in, when it may share that turn's check. */
const arrivedIn = new WeakMap<IncomingMessage, SharedCheck>();
/** The turn in which each connection's last answer went out; `null`: never share again (see above). */
const lastAnswerIn = new WeakMap<Socket, SharedCheck | null>();
/** Connections open to the servers {@link countConnections} watches, all together (one event loop polls them all). */
let openConnections = 0;
const counted = new WeakSet<Server>();
const countedSockets = new WeakSet<Socket>();

/** Counts the server's connections (call once per server, before it listens). */
export function countConnections(server: Server): void {
  if (counted.has(server)) return;
  counted.add(server);
  server.on('connection', (socket: Socket) => {
    countedSockets.add(socket);
    openConnections += 1;
    socket.once('close', () => {
      openConnections -= 1;
    });
  });
}

/**
 * Notes a request as it arrives (from the `request` event of a server whose connections are counted).
 * @param answersPending - answers still going out on its connection to earlier requests.
 */
export function noteArrival(request: IncomingMessage, answersPending: number): void {
  const socket = request.socket;
  if (!(socket instanceof Socket) || answersPending > 0) return;
  const body = bodyOf(request);
  if (body === 'unknown' || body > MAX_SHARING_BODY_BYTES) return;
  if (body > 0 && body + maxHeaderSize >= READ_BYTES) return;
  if (openConnections >= MAX_SHARING_CONNECTIONS || !countedSockets.has(socket)) return;
  const last = lastAnswerIn.get(socket);
  const now = currentTurn();
  if (last === null || last === now) return;
  arrivedIn.set(request, now);
}

/**
 * The length of the body that follows the request's headers (HTTP/1.1 message framing: 0 for none), or
 * `'unknown'` for a transfer coding (chunked). Node's parser has already refused a length it cannot read.
 */
function bodyOf(request: IncomingMessage): number | 'unknown' {
  if (request.headers['transfer-encoding'] !== undefined) return 'unknown';
  const length = request.headers['content-length'];
  if (length === undefined) return 0;
  const bytes = Number(length);
  return Number.isSafeInteger(bytes) && bytes >= 0 ? bytes : 'unknown';
}

/** Notes that the answer to `request` has gone out, or will not (its response closed). */
export function noteAnswered(request: IncomingMessage): void {
  const socket = request.socket;
  if (!(socket instanceof Socket)) return;
  lastAnswerIn.set(
    socket,
    request.complete && lastAnswerIn.get(socket) !== null ? currentTurn() : null,
  );
}

/** The check a request may share with the others of its turn, or `undefined` if it checks for itself. */
export function sharedCheckOf(request: IncomingMessage): SharedCheck | undefined {
  const arrived = arrivedIn.get(request);
  // A request with a body: only while its turn lasts (`turn` is cleared at its end) and once wholly read.
  if (arrived !== undefined && bodyOf(request) !== 0 && (turn !== arrived || !request.complete)) {
    return undefined;
  }
  return arrived;
}
