import { readdir } from 'node:fs/promises';
import type { Socket } from 'node:net';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  databases,
  listenLocally,
  loginOpen,
  type TestApp,
} from '../helper.js';
import { DUE_DILIGENCE_FIELDS, multipart, pdf, openRaw, secondInstance } from './support.js';

/**
 * A due-diligence request is multipart: its handler reads the body itself, so the session is judged (by
 * requireUser) when the headers are in, before a byte of the file, which may take minutes to arrive. A session
 * logged out on another instance, or ended by another connection (the staff tool switching an open client to
 * magic-link, the hourly purge), while the file was still on its way used to store the request, keep its file
 * and mail the team, on either database, where the same JSON submission (judged once its body is in) is
 * refused. Found by a black-box probe of the built server (two instances on one PostgreSQL database,
 * and on one SQLite folder).
 */
describe.each(databases)(
  'a session ended while a due-diligence upload is on its way ($name, two instances)',
  (target) => {
    let t: TestApp;
    let other: FastifyInstance;
    let port: number;
    const sockets: Socket[] = [];

    beforeAll(async () => {
      t = await buildTestApp(target);
      // A second instance on the same database and data folder, behind the same load balancer.
      other = await secondInstance(t);
      port = await listenLocally(t.app);
    });
    afterAll(async () => {
      for (const socket of sockets.splice(0)) socket.destroy();
      await other.close();
      await t.close();
    });

    const open = () => openRaw(port, sockets);
    /** The status line's code once the whole head of the answer is in. */
    const status = (socket: Socket & { text: string }) =>
      new Promise<number>((resolve, reject) => {
        const deadline = Date.now() + 10_000;
        const poll = () => {
          if (socket.text.includes('\r\n\r\n')) resolve(Number(socket.text.slice(9, 12)));
          else if (Date.now() > deadline) reject(new Error(`no answer: ${socket.text}`));
          else setTimeout(poll, 5);
        };
        poll();
      });

    const revocations = {
      'it is logged out on the other instance': async (cookie: string) => {
        const out = await other.inject({
          method: 'GET',
          url: '/api/demo/logout',
          headers: { cookie },
        });
        expect(out.statusCode).toBe(303);
      },
      'another connection deletes the session': async () => {
        if (target.url === null) {
          const staff = new SqliteDatabase(path.join(t.dataDir, 'portal.sqlite'));
          try {
            staff.pragma('busy_timeout = 5000');
            expect(staff.prepare('delete from sessions').run().changes).toBeGreaterThan(0);
          } finally {
            staff.close();
          }
        } else {
          const { numDeletedRows } = await other.db.kysely
            .deleteFrom('sessions')
            .executeTakeFirstOrThrow();
          expect(Number(numDeletedRows)).toBeGreaterThan(0);
        }
      },
    };

    for (const [how, revoke] of Object.entries(revocations)) {
      it(`should store nothing and keep no file when ${how} before the upload ends`, async () => {
        const cookie = await loginOpen(t.app);
        const { payload, headers } = multipart(DUE_DILIGENCE_FIELDS, {
          filename: 'plans.pdf',
          content: pdf(256 * 1024),
          contentType: 'application/pdf',
        });
        const stored = await countRows(t.app, 'due_diligence');
        const mails = await countRows(t.app, 'outbox');
        const socket = await open();
        // The headers and most of the file: the server judges the session and starts storing the file.
        socket.write(
          `POST /api/demo/due-diligence HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
            `Content-Type: ${headers['content-type']}\r\nContent-Length: ${payload.length}\r\n\r\n`,
        );
        socket.write(payload.subarray(0, payload.length - 1024));
        await new Promise((resolve) => setTimeout(resolve, 100));
        await revoke(cookie);
        // Only now the end of the file: the session had ended before it was sent.
        socket.write(payload.subarray(payload.length - 1024));
        expect(await status(socket)).toBe(401);
        expect(socket.text).toContain('You are not logged in. Please log in again.');
        expect(await countRows(t.app, 'due_diligence')).toBe(stored);
        expect(await countRows(t.app, 'outbox')).toBe(mails);
        // The file received before the refusal is not kept (nor any partial copy of it).
        expect(await readdir(path.join(t.dataDir, 'uploads')).catch(() => [])).toEqual([]);
        socket.destroy();
      });
    }

    it('should still store an upload whose session lives on', async () => {
      const cookie = await loginOpen(t.app);
      const { payload, headers } = multipart(DUE_DILIGENCE_FIELDS, {
        filename: 'plans.pdf',
        content: pdf(4096),
        contentType: 'application/pdf',
      });
      const files = (await readdir(path.join(t.dataDir, 'uploads')).catch(() => [])).length;
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/demo/due-diligence',
        headers: { ...headers, cookie },
        payload,
      });
      expect(response.statusCode).toBe(303);
      expect(await readdir(path.join(t.dataDir, 'uploads'))).toHaveLength(files + 1);
    });
  },
);
