import { connect } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../src/routes/api/due-diligence.js';
import { buildTestApp, databases, listenLocally, loginOpen, type TestApp } from '../helper.js';
import { DUE_DILIGENCE_FIELDS, multipart, pdf, walk } from './support.js';

const CONTINUE = 'HTTP/1.1 100 Continue\r\n\r\n';

interface Exchange {
  /** Everything the server sent, as text. */
  answer: string;
  /** Whether the server closed the connection (rather than the test giving up waiting). */
  closed: boolean;
}

/**
 * Sends `head` (with `Expect: 100-continue`) and waits: on `100 Continue` sends `body`, as curl does; on any
 * other answer sends nothing more. Resolves when the server closes the connection, or `waitMs` after the final
 * answer began (a kept-alive connection).
 */
function expectContinue(port: number, head: string, body: Buffer, waitMs = 3_000) {
  return new Promise<Exchange>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let sentBody = false;
    let timer: NodeJS.Timeout | undefined;
    const done = (closed: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ answer: Buffer.concat(received).toString('latin1'), closed });
    };
    socket.on('data', (chunk: Buffer) => {
      received.push(chunk);
      const text = Buffer.concat(received).toString('latin1');
      if (!sentBody && text.startsWith(CONTINUE)) {
        sentBody = true;
        socket.write(body);
      }
      if (timer === undefined && text.replace(CONTINUE, '').startsWith('HTTP/1.1 ')) {
        timer = setTimeout(() => done(false), waitMs);
      }
    });
    socket.on('error', () => undefined);
    socket.on('close', () => done(true));
    // Old servers send 100 Continue to anything, and then wait for a body this client never sends.
    const deadline = setTimeout(() => done(false), 10_000);
    socket.once('close', () => clearTimeout(deadline));
    socket.write(head);
  });
}

const statusOf = (answer: string) => /^HTTP\/1\.1 (\d{3}) /.exec(answer)?.[1];
const headerOf = (answer: string, name: string) =>
  new RegExp(`\\r\\n${name}: ([^\\r]*)\\r\\n`, 'i').exec(answer)?.[1];
const jsonOf = (answer: string) =>
  JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as unknown;

describe.each(databases)('Expect: 100-continue ($name)', (target) => {
  let t: TestApp;
  let port: number;
  let cookie: string;
  beforeAll(async () => {
    // One due diligence request a user and hour: the second is refused by the limit.
    t = await buildTestApp(target, { DUE_DILIGENCE_LIMIT_PER_HOUR: '1' });
    port = await listenLocally(t.app);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const form = multipart(DUE_DILIGENCE_FIELDS, { filename: 'plan.pdf', content: pdf(2048) });
  const upload = (length: number, withCookie = cookie) =>
    `POST /api/demo/due-diligence HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
    (withCookie === '' ? '' : `Cookie: ${withCookie}\r\n`) +
    `Content-Type: ${form.headers['content-type']}\r\nContent-Length: ${length}\r\n` +
    'Expect: 100-continue\r\n\r\n';
  const uploads = () => walk(path.join(t.dataDir, 'uploads'));

  it('should refuse an upload without a session with 401 and no 100 Continue, and close', async () => {
    const { answer, closed } = await expectContinue(
      port,
      upload(form.payload.length, ''),
      form.payload,
    );
    expect(answer.startsWith('HTTP/1.1 401 '), answer.slice(0, 100)).toBe(true);
    expect(answer).not.toContain(' 100 Continue');
    expect(jsonOf(answer)).toEqual({ error: expect.any(String) as string });
    expect(headerOf(answer, 'connection')).toBe('close');
    expect(closed).toBe(true);
  });

  it('should refuse a declared Content-Length over the limit with 413 and no 100 Continue', async () => {
    const { answer, closed } = await expectContinue(port, upload(MAX_BODY_BYTES + 1), form.payload);
    expect(statusOf(answer), answer.slice(0, 100)).toBe('413');
    expect(jsonOf(answer)).toEqual({ error: 'File size should be less than 20MB.' });
    expect(closed).toBe(true);
    expect(await uploads()).toEqual([]);
  });

  it('should refuse a JSON body declared over the body limit with 413 and no 100 Continue', async () => {
    const { answer, closed } = await expectContinue(
      port,
      `POST /api/demo/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${1024 * 1024}\r\nExpect: 100-continue\r\n\r\n`,
      Buffer.alloc(0),
    );
    expect(statusOf(answer), answer.slice(0, 100)).toBe('413');
    expect(jsonOf(answer)).toEqual({ error: 'The request body is too large.' });
    expect(closed).toBe(true);
  });

  it('should refuse an upload whose boundary cannot be read with 400 and no 100 Continue', async () => {
    // Refused on its headers alone, it was told to send its body first (found by the twenty-third session's API
    // probe). And the refusal does not count against the hourly limit: the good upload below still goes in.
    for (const contentType of [
      'multipart/form-data',
      'multipart/form-data; boundary*=x',
      'multipart/form-data; boundary=a; boundary=b',
    ]) {
      const { answer, closed } = await expectContinue(
        port,
        upload(form.payload.length).replace(form.headers['content-type'], contentType),
        form.payload,
      );
      expect(statusOf(answer), `${contentType}: ${answer.slice(0, 100)}`).toBe('400');
      expect(jsonOf(answer)).toEqual({ error: expect.any(String) as string });
      expect(closed, contentType).toBe(true);
    }
    expect(await uploads()).toEqual([]);
  });

  it('should send 100 Continue to a good upload, store it, then refuse the next over the limit with 429', async () => {
    const good = await expectContinue(port, upload(form.payload.length), form.payload, 300);
    expect(good.answer.startsWith(CONTINUE), good.answer.slice(0, 100)).toBe(true);
    expect(statusOf(good.answer.slice(CONTINUE.length))).toBe('303');
    expect(await uploads()).toHaveLength(1);

    const limited = await expectContinue(port, upload(form.payload.length), form.payload);
    expect(statusOf(limited.answer), limited.answer.slice(0, 100)).toBe('429');
    expect(Number(headerOf(limited.answer, 'retry-after'))).toBeGreaterThan(0);
    expect(jsonOf(limited.answer)).toEqual({
      error:
        'Too many due diligence requests in an hour. Please try again later, or e-mail the team.',
    });
    expect(limited.closed).toBe(true);
    expect(await uploads()).toHaveLength(1);
  });

  it('should send 100 Continue to a good JSON request and answer it on the same connection', async () => {
    const body = Buffer.from(
      JSON.stringify({
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: 'ada@example.com',
        phone: '1',
      }),
    );
    const { answer, closed } = await expectContinue(
      port,
      `POST /api/demo/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
      body,
      300,
    );
    expect(answer.startsWith(CONTINUE), answer.slice(0, 100)).toBe(true);
    expect(statusOf(answer.slice(CONTINUE.length))).toBe('200');
    expect(closed).toBe(false); // kept alive, as before
  });

  // Noted by the thirty-second session: a request with no body (no Content-Length, no Transfer-Encoding, or a
  // Content-Length of 0) got an interim `100 Continue` before its answer. There is nothing to continue (RFC 9110
  // §10.1.1 lets a server leave it out): the answer comes at once, and the connection stays open as for any request.
  it('should answer a request with no body at once, with no 100 Continue, and keep the connection', async () => {
    for (const [method, url, framing] of [
      ['GET', '/api/demo', ''],
      ['HEAD', '/api/demo', ''],
      ['GET', '/api/demo', 'Content-Length: 0\r\n'],
      ['GET', '/api/demo/content', ''],
    ] as const) {
      const label = `${method} ${url} ${framing}`;
      const { answer, closed } = await expectContinue(
        port,
        `${method} ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${cookie}\r\n${framing}` +
          'Expect: 100-continue\r\n\r\n' +
          // A request behind it on the connection is answered too.
          `GET /api/demo HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n\r\n`,
        Buffer.alloc(0),
        300,
      );
      expect(answer, label).not.toContain('100 Continue');
      expect(answer.match(/HTTP\/1\.1 \d{3} /g), label).toEqual(['HTTP/1.1 200 ', 'HTTP/1.1 200 ']);
      expect(headerOf(answer, 'connection'), label).not.toBe('close');
      expect(closed, label).toBe(false);
    }
  });
});
