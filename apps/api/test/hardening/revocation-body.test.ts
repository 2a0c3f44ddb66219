import type { Socket } from 'node:net';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, listenLocally, loginOpen, type TestApp } from '../helper.js';
import { VALID_BODIES, openRaw, secondInstance } from './support.js';

/**
 * A session ended elsewhere (the staff tool's connection, a logout on another instance) while a request of it
 * is still arriving: its headers are in, its body is not. The request is judged once its body has arrived, so
 * it must be judged on the database as it is then. On SQLite the client and session lookup is kept in memory
 * and requests that arrive together share one check of other connections' commits
 * (services/arrival-turn.ts): a request with a body used to take the check of the turn its headers arrived in,
 * however long its body then took, and a session ended before the body was even sent still stored a quote,
 * mailed the team and wrote activity (found by the twelfth session's black-box probe of the built server).
 */
describe('a session ended while a request’s body is on its way (SQLite, two instances)', () => {
  let t: TestApp;
  let other: FastifyInstance;
  let port: number;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    // A second instance on the same data folder, behind the same load balancer.
    other = await secondInstance(t);
    port = await listenLocally(t.app);
  });
  afterAll(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await other.close();
    await t.close();
  });

  const open = () => openRaw(port, sockets);
  const accepted = (count: number) =>
    new Promise<void>((resolve) => {
      const poll = () =>
        t.app.server.getConnections((_error, n) => (n >= count ? resolve() : setTimeout(poll, 5)));
      poll();
    });
  /** Waits until `socket` has a whole answer (its headers and a body of the length they give). */
  const answer = (socket: Socket & { text: string }) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      const deadline = Date.now() + 10_000;
      const poll = () => {
        const head = socket.text.indexOf('\r\n\r\n');
        const status = Number(socket.text.slice(9, 12));
        // A 204 has no body and says no length.
        const length = status === 204 ? '0' : /\r\ncontent-length: (\d+)/i.exec(socket.text)?.[1];
        if (head >= 0 && length !== undefined && socket.text.length >= head + 4 + Number(length)) {
          resolve({
            status,
            body: socket.text.slice(head + 4, head + 4 + Number(length)),
          });
        } else if (Date.now() > deadline) reject(new Error(`no answer: ${socket.text}`));
        else setTimeout(poll, 5);
      };
      poll();
    });

  const revocations = {
    'the staff tool deletes the session': () => {
      const staff = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
      try {
        staff.pragma('busy_timeout = 5000');
        expect(staff.prepare('delete from sessions').run().changes).toBeGreaterThan(0);
      } finally {
        staff.close();
      }
    },
    'it is logged out on the other instance': async (cookie: string) => {
      const out = await other.inject({
        method: 'GET',
        url: '/api/demo/logout',
        headers: { cookie },
      });
      expect(out.statusCode).toBe(303);
    },
  };
  const rows = async (table: 'activity' | 'quotes') => {
    const { n } = await t.app.db.kysely
      .selectFrom(table)
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    return Number(n);
  };
  const calls = [
    ['activity', 'activity'],
    ['warranty', 'quotes'],
    ['car', 'quotes'],
  ] as const;

  for (const [how, revoke] of Object.entries(revocations)) {
    for (const [call, table] of calls) {
      it(`should refuse POST ${call} whose body ends after ${how}`, async () => {
        const cookie = await loginOpen(t.app);
        const body = JSON.stringify(VALID_BODIES[`POST /api/:client/${call}`]);
        const stored = await rows(table);
        const [reader, writer] = [await open(), await open()];
        await accepted(2);
        // Written together, so the server reads them in one poll: the GET (of the same session) makes the
        // turn's one check and keeps the lookup; the POST's headers arrive in that turn, its body not yet.
        reader.write(`GET /api/demo HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
        writer.write(
          `POST /api/demo/${call} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
            body.slice(0, 4),
        );
        expect((await answer(reader)).status).toBe(200);
        await new Promise((resolve) => setTimeout(resolve, 20));
        await revoke(cookie);
        // Only now the rest of the body: the session had ended before it was sent.
        writer.write(body.slice(4));
        expect(await answer(writer)).toEqual({
          status: 401,
          body: JSON.stringify({ error: 'You are not logged in. Please log in again.' }),
        });
        expect(await rows(table)).toBe(stored);
        reader.destroy();
        writer.destroy();
      });

      it(`should refuse POST ${call} sent whole after ${how}, in the turn of a GET of its session`, async () => {
        const cookie = await loginOpen(t.app);
        const body = JSON.stringify(VALID_BODIES[`POST /api/:client/${call}`]);
        const stored = await rows(table);
        const [warm, reader, writer] = [await open(), await open(), await open()];
        await accepted(3);
        // The lookup kept in memory first, then the session ended on another connection.
        warm.write(`GET /api/demo HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
        expect((await answer(warm)).status).toBe(200);
        await revoke(cookie);
        // Both read in one poll: the POST, headers and body in one write, shares the turn's one check, made
        // after the session ended.
        reader.write(`GET /api/demo HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n\r\n`);
        writer.write(
          `POST /api/demo/${call} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
        );
        expect((await answer(writer)).status).toBe(401);
        expect(await rows(table)).toBe(stored);
        warm.destroy();
        reader.destroy();
        writer.destroy();
      });
    }
  }
});
