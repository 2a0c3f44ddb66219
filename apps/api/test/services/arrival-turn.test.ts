import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SharedCheck } from '../../src/db/committed-reads.js';
import {
  MAX_SHARING_BODY_BYTES,
  MAX_SHARING_CONNECTIONS,
  countConnections,
  noteAnswered,
  noteArrival,
  sharedCheckOf,
} from '../../src/services/arrival-turn.js';

/**
 * A bare server wired as app.ts wires it (arrival noted with the answers pending on its connection, the answer
 * noted when its response closes), answering each request at once without reading its body, and recording the
 * check each request may share.
 */
function turnServer(
  /**
   * When the request is judged: at once (before its body is read), once its body has been read (as a JSON
   * POST is), or a turn of the event loop after that.
   */
  judged: 'at once' | 'after its body' | 'a turn later' = 'at once',
) {
  const seen: { url: string; check: SharedCheck | undefined }[] = [];
  const pending = new WeakMap<object, number>();
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const judge = () => {
      seen.push({ url: request.url ?? '', check: sharedCheckOf(request) });
      response.setHeader('content-type', 'text/plain');
      response.end('ok');
    };
    if (judged === 'at once') {
      judge();
      return;
    }
    request.resume();
    request.once('end', () => (judged === 'a turn later' ? setImmediate(judge) : judge()));
  });
  countConnections(server);
  server.prependListener('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    noteArrival(request, pending.get(socket) ?? 0);
    pending.set(socket, (pending.get(socket) ?? 0) + 1);
    response.once('close', () => {
      pending.set(socket, (pending.get(socket) ?? 1) - 1);
      noteAnswered(request);
    });
  });
  return { server, seen };
}

const get = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

/** Reads from `socket` until `count` answers have come. */
function answers(socket: Socket, count: number): Promise<void> {
  return new Promise((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      if (text.split('HTTP/1.1 ').length - 1 >= count && text.endsWith('ok')) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
}

describe('arrival turns: which requests may share a check of other connections’ commits', () => {
  let server: Server;
  let seen: { url: string; check: SharedCheck | undefined }[];
  let port: number;
  const sockets: Socket[] = [];

  const open = () =>
    new Promise<Socket>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => resolve(socket));
      socket.once('error', reject);
      sockets.push(socket);
    });
  const checkOf = (url: string) => seen.find((s) => s.url === url)?.check;
  /** Waits until the server's count of open connections satisfies `ok` (it counts them as it accepts them). */
  const connections = (ok: (count: number) => boolean) =>
    new Promise<void>((resolve) => {
      const poll = () =>
        server.getConnections((_error, count) => (ok(count) ? resolve() : setTimeout(poll, 5)));
      poll();
    });

  const start = async (judged?: Parameters<typeof turnServer>[0]) => {
    ({ server, seen } = turnServer(judged));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address !== null ? address.port : 0;
  };
  const stop = async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  };
  /** The server again, judging its requests `judged`. */
  const restart = async (judged: Parameters<typeof turnServer>[0]) => {
    await stop();
    await start(judged);
  };

  beforeEach(() => start());
  afterEach(stop);

  it('should give requests on different connections that arrive together one turn', async () => {
    const [a, b, c] = await Promise.all([open(), open(), open()]);
    if (a === undefined || b === undefined || c === undefined) throw new Error('not connected');
    // All accepted first (a connection is read from the poll after the one that accepted it), then written in
    // one go: all three requests are in the system before the server's next poll.
    await connections((count) => count >= 3);
    a.write(get('/a'));
    b.write(get('/b'));
    c.write(get('/c'));
    await Promise.all([answers(a, 1), answers(b, 1), answers(c, 1)]);
    const turn = checkOf('/a');
    expect(turn).toBeDefined();
    expect(checkOf('/b')).toBe(turn);
    expect(checkOf('/c')).toBe(turn);
  });

  it('should give a request sent after an answer a new turn, on the same connection and on another', async () => {
    const [a, b] = await Promise.all([open(), open()]);
    if (a === undefined || b === undefined) throw new Error('not connected');
    a.write(get('/first'));
    await answers(a, 1);
    a.write(get('/again'));
    await answers(a, 1);
    b.write(get('/other'));
    await answers(b, 1);
    const turns = ['/first', '/again', '/other'].map(checkOf);
    for (const turn of turns) expect(turn).toBeDefined();
    expect(new Set(turns).size).toBe(3);
  });

  it('should not let a request behind another on its connection (pipelined) share', async () => {
    const a = await open();
    a.write(get('/one') + get('/two') + get('/three'));
    await answers(a, 3);
    expect(checkOf('/one')).toBeDefined();
    expect(checkOf('/two')).toBeUndefined();
    expect(checkOf('/three')).toBeUndefined();
  });

  it('should not let a request with a body share when it is judged before its body is read', async () => {
    const [a, b, c, d] = await Promise.all([open(), open(), open(), open()]);
    if (a === undefined || b === undefined || c === undefined || d === undefined) {
      throw new Error('not connected');
    }
    await connections((count) => count >= 4);
    a.write(get('/alone'));
    b.write('POST /sized HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 4\r\n\r\nbody');
    c.write(
      'POST /chunked HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    );
    d.write('POST /empty HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\n\r\n');
    await Promise.all([answers(a, 1), answers(b, 1), answers(c, 1), answers(d, 1)]);
    expect(checkOf('/alone')).toBeDefined();
    expect(checkOf('/sized')).toBeUndefined();
    expect(checkOf('/chunked')).toBeUndefined();
    expect(checkOf('/empty')).toBe(checkOf('/alone'));
  });

  it('should never again let a connection share once an answer went out before its request’s body ended', async () => {
    const a = await open();
    // The server answers at once and Node drops the rest of the body: the next request may follow it in the
    // very read that drops it, after the poll returned.
    a.write('POST /early HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 20\r\n\r\n0123456789');
    await answers(a, 1);
    a.write('0123456789');
    a.write(get('/after'));
    await answers(a, 1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    a.write(get('/later'));
    await answers(a, 1);
    // A request with a body never shares (above); the ones after it are the point here.
    expect(checkOf('/early')).toBeUndefined();
    expect(checkOf('/after')).toBeUndefined();
    expect(checkOf('/later')).toBeUndefined();
  });

  it(`should let no request share while ${MAX_SHARING_CONNECTIONS} connections or more are open`, async () => {
    const many = await Promise.all(Array.from({ length: MAX_SHARING_CONNECTIONS }, open));
    // The server counts a connection when it accepts it: wait until it has accepted them all.
    await connections((count) => count >= MAX_SHARING_CONNECTIONS);
    const first = many[0];
    if (first === undefined) throw new Error('not connected');
    first.write(get('/crowded'));
    await answers(first, 1);
    expect(checkOf('/crowded')).toBeUndefined();
    // One fewer, and requests share again.
    const last = many.at(-1);
    if (last === undefined) throw new Error('not connected');
    await new Promise<void>((resolve) => {
      last.once('close', () => resolve());
      last.destroy();
    });
    await connections((count) => count < MAX_SHARING_CONNECTIONS);
    // The server sees the close after its client does: give its count the same chance.
    await new Promise((resolve) => setTimeout(resolve, 20));
    first.write(get('/roomy'));
    await answers(first, 1);
    expect(checkOf('/roomy')).toBeDefined();
  });
  const post = (path: string, body: string) =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  /** A GET and a POST on two connections, written together: read by the server in one poll. */
  const getAndPost = async (postRequest: string) => {
    const [a, b] = await Promise.all([open(), open()]);
    if (a === undefined || b === undefined) throw new Error('not connected');
    await connections((count) => count >= 2);
    a.write(get('/alone'));
    b.write(postRequest);
    await Promise.all([answers(a, 1), answers(b, 1)]);
    return { a, b };
  };

  it('should let a request whose body came with its headers share once its body is read, in the same turn', async () => {
    await restart('after its body');
    await getAndPost(post('/quote', JSON.stringify({ units: 12, name: 'Bench Mark' })));
    expect(checkOf('/alone')).toBeDefined();
    expect(checkOf('/quote')).toBe(checkOf('/alone'));
  });

  it('should not let a request with a body share when it is judged a turn after it was read', async () => {
    await restart('a turn later');
    await getAndPost(post('/quote', '{"units":12}'));
    expect(checkOf('/alone')).toBeDefined();
    expect(checkOf('/quote')).toBeUndefined();
  });

  it('should not let a request share whose body ends in a later poll than its headers came in', async () => {
    await restart('after its body');
    const [a, b] = await Promise.all([open(), open()]);
    if (a === undefined || b === undefined) throw new Error('not connected');
    await connections((count) => count >= 2);
    const request = post('/slow', '{"units":12}');
    a.write(get('/alone'));
    b.write(request.slice(0, -4));
    await answers(a, 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    b.write(request.slice(-4));
    await answers(b, 1);
    expect(checkOf('/alone')).toBeDefined();
    expect(checkOf('/slow')).toBeUndefined();
  });

  it(`should not let a request share whose body is over ${MAX_SHARING_BODY_BYTES} bytes or of unknown length`, async () => {
    await restart('after its body');
    await getAndPost(post('/large', JSON.stringify({ text: 'x'.repeat(MAX_SHARING_BODY_BYTES) })));
    expect(checkOf('/alone')).toBeDefined();
    expect(checkOf('/large')).toBeUndefined();
    await restart('after its body');
    await getAndPost(
      'POST /chunked HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n' +
        '2\r\n{}\r\n0\r\n\r\n',
    );
    expect(checkOf('/alone')).toBeDefined();
    expect(checkOf('/chunked')).toBeUndefined();
    // At the limit it shares.
    await restart('after its body');
    const atLimit = JSON.stringify({ text: 'x'.repeat(MAX_SHARING_BODY_BYTES - 11) });
    expect(Buffer.byteLength(atLimit)).toBe(MAX_SHARING_BODY_BYTES);
    await getAndPost(post('/limit', atLimit));
    expect(checkOf('/limit')).toBe(checkOf('/alone'));
  });

  it('should not let a request with a body behind another on its connection share', async () => {
    await restart('after its body');
    const a = await open();
    a.write(get('/first') + post('/behind', '{"units":12}'));
    await answers(a, 2);
    expect(checkOf('/first')).toBeDefined();
    expect(checkOf('/behind')).toBeUndefined();
  });
});
