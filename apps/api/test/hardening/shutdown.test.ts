import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { SHUTTING_DOWN_MESSAGE } from '../../src/app.js';
import { buildTestApp, loginOpen, type TestApp } from '../helper.js';
import { VALID_BODIES } from './support.js';

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
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as net.AddressInfo;
    const body = JSON.stringify(VALID_BODIES['POST /api/:client/warranty']);
    const socket = net.connect(port, '127.0.0.1');
    let received = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (received += chunk));
    await new Promise((resolve) => socket.once('connect', resolve));
    // A quote whose body is still on its way: the connection is busy as the shutdown begins.
    socket.write(
      `POST /api/demo/warranty HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, 10),
    );
    await new Promise((resolve) => setTimeout(resolve, 100));
    const closed = t.app.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The rest of it, and a second request on the same connection.
    socket.write(body.slice(10) + 'GET /api/openapi.json HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
    await new Promise((resolve) => socket.once('close', resolve));
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
