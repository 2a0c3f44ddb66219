import type { Socket } from 'node:net';
import type pg from 'pg';

/** How long past its statement timeout a statement may go unanswered before its connection is given up. */
export const ANSWER_GRACE_MS = 2_000;

/**
 * Ends a connection whose PostgreSQL says nothing at all for `ms` while a statement of it waits for an answer. The
 * statement timeout is PostgreSQL's own: a server that stops answering (a host that hangs or is paused, a network
 * cut that drops packets rather than refusing them) never sends its cancellation, and the statement's request
 * waited for as long as the server stayed silent (40 s with PostgreSQL stopped by SIGSTOP for 40 s; up to TCP's
 * retransmission limit, about 15 minutes, for a cut: found by the thirtieth session's PostgreSQL probe). With the
 * socket destroyed the statement fails (`ETIMEDOUT`, answered 503), the pool drops the connection, and the next
 * request opens a new one. Nothing is armed while the connection is idle, in the pool or between statements.
 */
export function armAnswerDeadline(client: pg.PoolClient, ms: number): void {
  const stream = (client as unknown as { connection?: { stream?: Socket } }).connection?.stream;
  if (stream === undefined || typeof stream.setTimeout !== 'function') return;
  stream.on('timeout', () => {
    stream.destroy(
      Object.assign(new Error(`PostgreSQL sent nothing for ${ms} ms while a statement waited`), {
        code: 'ETIMEDOUT',
      }),
    );
  });
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  let waiting = 0;
  const settled = () => {
    waiting -= 1;
    if (waiting === 0 && !stream.destroyed) stream.setTimeout(0);
  };
  (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args) => {
    waiting += 1;
    if (waiting === 1) stream.setTimeout(ms);
    let result: unknown;
    try {
      result = query(...args);
    } catch (error) {
      settled();
      throw error;
    }
    if (result instanceof Promise) result.then(settled, settled);
    else settled();
    return result;
  };
}
