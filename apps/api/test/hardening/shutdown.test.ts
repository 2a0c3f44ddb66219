import { readdir } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SHUTTING_DOWN_MESSAGE } from '../../src/app.js';
import { buildTestApp, loginOpen, multipart, pdf, type TestApp } from '../helper.js';
import { DUE_DILIGENCE_FIELDS, quoteInFlight } from './support.js';

/**
 * Found by the sixteenth session's fault probe: a request arriving on a kept-alive connection after SIGTERM was
 * answered in Fastify's words (`{"error":"Service Unavailable","message":…,"statusCode":503}`), outside the API's
 * `{ error }` contract and with no Retry-After.
 */
describe('a request arriving while the server shuts down', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close().catch(() => undefined);
  });

  it('should be answered 503 with the API’s message and Retry-After, after the request in flight is answered', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    const cookie = await loginOpen(t.app);
    // A quote whose body is still on its way: the connection is busy as the shutdown begins.
    const quote = await quoteInFlight(t, cookie);
    const closed = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The rest of it, and a second request on the same connection.
    const received = await quote.finish(
      'GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
    );
    await closed;

    const answers = received.split(/(?=HTTP\/1\.1 \d{3} )/);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 201 /);
    const second = answers[1] ?? '';
    expect(second).toMatch(/^HTTP\/1\.1 503 /);
    expect(second).toMatch(/\r\nretry-after: 5\r\n/i);
    expect(second).toMatch(/\r\ncontent-type: application\/json/i);
    expect(JSON.parse(second.slice(second.indexOf('\r\n\r\n') + 4))).toEqual({
      error: SHUTTING_DOWN_MESSAGE,
    });
  });
});

/**
 * Found by the thirty-first session's crash probe: a kept-alive connection whose request was in flight when the close
 * began stayed open, idle, after its answer, until the cut-off: every SIGTERM with a browser connected took 8 s.
 */
describe('a kept-alive connection answered while the server shuts down', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close().catch(() => undefined);
  });

  it('should be closed once its answer has gone, so the close ends at once', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    const cookie = await loginOpen(t.app);
    const quote = await quoteInFlight(t, cookie);
    const started = Date.now();
    const closed = t.app.close();
    const received = await quote.finish();
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 201 /);
    expect(received).toMatch(/\r\nconnection: keep-alive\r\n/i);
    // Well before the 8 s cut-off.
    expect(Date.now() - started).toBeLessThan(3_000);
  });
});

/**
 * Found by the sixteenth session's fault probe: a SIGTERM during a slow upload waited for it until the grace
 * period ran out, and the process was then ended by force with exit code 1.
 */
describe('an upload still arriving when the server shuts down', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close().catch(() => undefined);
  });

  it('should be cut off after the cut-off, leaving nothing stored, so the close ends', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null }, {}, {}, { shutdownBodyCutoffMs: 500 });
    const cookie = await loginOpen(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const form = multipart(DUE_DILIGENCE_FIELDS, { filename: 'plan.pdf', content: pdf(1_000_000) });
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    const closedSocket = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    const head =
      `POST /api/demo/due-diligence HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
      Object.entries(form.headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `Content-Length: ${form.payload.length}\r\n\r\n`;
    // The headers and a fifth of the body: the rest never comes.
    socket.write(head);
    socket.write(form.payload.subarray(0, 200_000));
    await new Promise((resolve) => setTimeout(resolve, 200));

    const started = Date.now();
    await t.app.close();
    const took = Date.now() - started;
    await closedSocket;
    // Cut at the cut-off (500 ms), well before the grace period would have ended the process by force.
    expect(took).toBeGreaterThanOrEqual(450);
    expect(took).toBeLessThan(5_000);
    expect(received).not.toMatch(/^HTTP\/1\.1 [23]\d\d /);
    const stored = await t.app.db.kysely
      .selectFrom('due_diligence')
      .select('id')
      .execute()
      .catch(() => 'closed');
    // The database is closed with the app: what matters is that no row and no file were left.
    expect(stored === 'closed' || (Array.isArray(stored) && stored.length === 0)).toBe(true);
    // Right after the close: the partial file went before it ended (a process exits as its close ends).
    const uploads = await readdir(path.join(t.dataDir, 'uploads')).catch(() => []);
    expect(uploads).toEqual([]);
  });
});

// Found by the eighteenth session's fault probe: a client sending its headers a line a second held the close until
// the grace period ended the process by force (exit code 1): only requests with a body were cut off.
describe('headers still arriving when the server shuts down', () => {
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close().catch(() => undefined);
  });

  it('should be cut off after the cut-off, so the close ends', async () => {
    t = await buildTestApp({ name: 'sqlite', url: null }, {}, {}, { shutdownBodyCutoffMs: 500 });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const socket = net.connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    const closedSocket = new Promise((resolve) => socket.once('close', resolve));
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('GET /api/demo HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    const drip = setInterval(() => socket.write('X-Slow: 1\r\n'), 100);
    try {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const started = Date.now();
      await t.app.close();
      const took = Date.now() - started;
      await closedSocket;
      expect(took).toBeGreaterThanOrEqual(450);
      expect(took).toBeLessThan(5_000);
    } finally {
      clearInterval(drip);
    }
  });
});
