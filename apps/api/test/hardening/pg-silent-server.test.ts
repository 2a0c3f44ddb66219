import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE } from '../../src/db/unavailable.js';
import { buildTestApp, type TestApp } from '../helper.js';

/**
 * Found by the thirtieth session's PostgreSQL probe: PostgreSQL stopped with SIGSTOP for 40 s (as a host that hangs,
 * or a network cut that drops packets rather than refusing them, looks from here). The requests that waited for a
 * connection were answered 503 after DATABASE_TIMEOUT_MS, but those whose statement had been sent on a pooled
 * connection waited the whole 40 s: the statement timeout is the server's, and a silent server sends nothing. Now a
 * statement unanswered for DATABASE_TIMEOUT_MS plus two seconds ends its connection, and the request is a 503.
 *
 * The test puts a relay between the app and PostgreSQL that can stop passing bytes either way, with every
 * connection left open, as a silent server does.
 */
class SilentRelay {
  readonly server: net.Server;
  silent = false;
  readonly #pairs = new Set<[net.Socket, net.Socket]>();

  constructor(target: { host: string; port: number }) {
    this.server = net.createServer((inbound) => {
      const outbound = net.connect(target.port, target.host);
      const pair: [net.Socket, net.Socket] = [inbound, outbound];
      this.#pairs.add(pair);
      for (const [from, to] of [
        [inbound, outbound],
        [outbound, inbound],
      ] as const) {
        from.on('data', (chunk) => {
          if (!this.silent) to.write(chunk);
          // Said nothing: dropped, as a cut network drops it.
        });
        from.on('error', () => to.destroy());
        from.on('close', () => {
          to.destroy();
          this.#pairs.delete(pair);
        });
      }
    });
  }

  async listen(): Promise<number> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return (this.server.address() as net.AddressInfo).port;
  }

  async close(): Promise<void> {
    for (const [a, b] of this.#pairs) {
      a.destroy();
      b.destroy();
    }
    await new Promise((resolve) => this.server.close(resolve));
  }
}

describe.skipIf(process.env.TEST_DATABASE_URL === undefined)(
  'a PostgreSQL that stops answering (postgres)',
  () => {
    let t: TestApp;
    let relay: SilentRelay;
    beforeAll(async () => {
      const url = new URL(process.env.TEST_DATABASE_URL ?? '');
      relay = new SilentRelay({ host: url.hostname, port: Number(url.port || 5432) });
      url.port = String(await relay.listen());
      t = await buildTestApp(
        { name: 'postgres', url: url.toString() },
        { DATABASE_TIMEOUT_MS: '1000' },
      );
    });
    afterAll(async () => {
      await t?.close();
      await relay.close();
    });

    it('should answer 503 in bounded time, then work once it answers again', async () => {
      // Connections in the pool, as on a server that has been answering.
      for (let i = 0; i < 3; i++) {
        expect((await t.app.inject({ method: 'GET', url: '/api/demo' })).statusCode).toBe(200);
      }
      relay.silent = true;
      const started = Date.now();
      const answers = await Promise.all(
        Array.from({ length: 3 }, () =>
          Promise.race([
            t.app.inject({ method: 'GET', url: '/api/demo' }),
            sleep(15_000).then(() => 'hung' as const),
          ]),
        ),
      );
      const took = Date.now() - started;
      relay.silent = false;
      for (const answer of answers) {
        expect(answer).not.toBe('hung');
        const { statusCode, body } = answer as LightMyRequestResponse;
        expect({ statusCode, body: JSON.parse(body) as unknown }).toEqual({
          statusCode: 503,
          body: { error: DATABASE_UNAVAILABLE },
        });
      }
      // DATABASE_TIMEOUT_MS and the two seconds' grace, with room for a loaded machine.
      expect(took).toBeLessThan(8_000);
      expect((await t.app.inject({ method: 'GET', url: '/api/demo' })).statusCode).toBe(200);
    });
  },
);
