import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { closeAfterAnswer } from './close-after-answer.js';

/** Requests whose client waits for `100 Continue` before it sends the body, until it is told to go on. */
const waiting = new WeakSet<IncomingMessage>();

/** Whether an Expect header names 100-continue and nothing else (one or more times, in any case). */
function onlyContinue(expect: string | undefined): boolean {
  return (expect ?? '')
    .split(',')
    .every((member) => member.trim().toLowerCase() === '100-continue');
}

/** Whether a request says it has a body (a Content-Length other than 0, or a Transfer-Encoding). */
function hasBody(request: IncomingMessage): boolean {
  const length = request.headers['content-length'];
  return (
    request.headers['transfer-encoding'] !== undefined ||
    (length !== undefined && length.trim() !== '0')
  );
}

/**
 * `Expect: 100-continue` answered when the app first reads the body, not when the headers arrive (Node's
 * own way, which told a client to send megabytes the app then refused without reading). Everything the app
 * refuses before it reads (no session 401, a route's limits 429, a Content-Length over the body limit 413,
 * a wrong content type 415) goes out as the app's own answer, with no `100 Continue` before it; the
 * connection then closes without losing that answer (`closeAfterAnswer`), since the body never came. Any
 * request the app reads gets `100 Continue` at that moment and goes on as before; a request without a body is
 * answered without one.
 */
export function continueWhenRead(server: Server): void {
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    // Node takes any Expect naming 100-continue among others (`100-continue, foo`) as 100-continue alone; an
    // expectation besides it cannot be met either, so it gets the same 417 as any other (RFC 9110 §10.1.1).
    if (!onlyContinue(request.headers.expect)) {
      server.emit('checkExpectation', request, response);
      return;
    }
    // A request with no body has nothing to continue: answered at once, without the interim 100 (RFC 9110
    // §10.1.1 lets a server leave it out when the framing says there is no content; noted by the thirty-second
    // session). Node closes the connection after a final answer to a client that expected 100 Continue and got
    // none, for the body it may send after all; with no body framed, what follows is the next request, and the
    // connection is kept as for any other.
    if (!hasBody(request)) {
      (response as ServerResponse & { _expect_continue?: boolean })._expect_continue = false;
      server.emit('request', request, response);
      return;
    }
    waiting.add(request);
    // Not once the answer has begun (Node reads and drops an unread body after the answer; a 100 then would be
    // read as the answer to a next request).
    const goOn = () => {
      if (waiting.delete(request) && !response.headersSent) response.writeContinue();
    };
    const read = request._read.bind(request);
    request._read = (size: number) => {
      // The first read: restored, so this runs once.
      request._read = read;
      goOn();
      read(size);
    };
    // A body that has already arrived whole (sent with its headers, or behind other requests on the connection)
    // is never read from the connection again, so the read above never comes: the app's first listener for it
    // says it goes on. Without the 100, Node closes the connection after the answer, and the requests pipelined
    // behind it were lost (found by the twentieth session's probe of this session's changes).
    const onListener = (event: string | symbol) => {
      if (event !== 'data' && event !== 'readable') return;
      request.off('newListener', onListener);
      goOn();
    };
    request.on('newListener', onListener);
    // Answered without `100 Continue`: Node closes the connection (the client may send the body after all,
    // or not); the answer must reach it first.
    response.once('finish', () => {
      if (waiting.delete(request) && !request.complete) closeAfterAnswer(request, response);
    });
    server.emit('request', request, response);
  });
}
