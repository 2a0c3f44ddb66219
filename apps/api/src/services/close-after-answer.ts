import type { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import type { Readable } from 'node:stream';

/** How long, and how much more of the body, is read and dropped after an answer sent before the body ended. */
export const LINGER_MS = 2_000;
export const LINGER_BYTES = 4 * 1024 * 1024;

/** Connections already closing this way (the answer's error path and a route may both ask). */
const closing = new WeakSet<Socket>();

/**
 * Whether the connection already has its last answer and is closing (see {@link closeAfterAnswer}): the parser's
 * own refusal of the bytes still arriving must not be written after that answer.
 */
export function isClosingAfterAnswer(socket: unknown): boolean {
  return socket instanceof Socket && closing.has(socket);
}

/**
 * Closes a connection once its answer is out, without losing that answer to a reset: for an answer sent before
 * the request's body has all arrived (a body over the limit, a refusal before an upload is read). Node would
 * destroy the socket as soon as a `Connection: close` answer is written, with the client's unread bytes still
 * in it; the system then resets the connection, and a client still sending (a browser, fetch) often loses the
 * answer it has not yet read. So our side is ended, and what still arrives is read and dropped for
 * {@link LINGER_MS} or {@link LINGER_BYTES} at most, then the connection is closed. The answer must say
 * `Connection: close`. (An injected request has no connection: nothing to do.)
 */
export function closeAfterAnswer(request: IncomingMessage, response: ServerResponse): void {
  const socket = request.socket;
  if (!(socket instanceof Socket) || closing.has(socket)) return;
  closing.add(socket);
  const hangUp = () => {
    socket.removeListener('finish', socket.destroy); // Node's destroySoon
    if (socket.writable) socket.end();
    dropThenClose(socket, request);
  };
  if (response.writableFinished) hangUp();
  else response.once('finish', hangUp);
}

/**
 * Reads and drops what still arrives from `incoming` (the request's body, or the connection itself once Node's
 * parser has let it go) for {@link LINGER_MS} or {@link LINGER_BYTES} at most, then closes `socket`: our side has
 * ended (or is ending) with an answer the client must be able to read before the connection goes.
 */
export function dropThenClose(
  socket: { destroy: () => void; once: (event: 'close', listener: () => void) => unknown },
  incoming: Readable,
): void {
  let dropped = 0;
  incoming.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  incoming.resume();
  const deadline = setTimeout(() => socket.destroy(), LINGER_MS);
  socket.once('close', () => clearTimeout(deadline));
}
