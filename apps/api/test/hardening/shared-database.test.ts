import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOUR, MINUTE } from '../../src/clock.js';
import { sha256 } from '../../src/crypto.js';
import { openDatabase } from '../../src/db/connect.js';
import { findClientByPrefix } from '../../src/repositories/clients.js';
import { SESSION_ABSOLUTE_MS, SESSION_IDLE_MS } from '../../src/repositories/sessions.js';
import { importContent } from '../../src/services/content-import.js';
import {
  buildTestApp,
  databases,
  FIXTURE_CONTENT,
  loginMagic,
  loginOpen,
  type TestApp,
} from '../helper.js';
import { secondInstance } from './support.js';

/**
 * Two instances of the API on one database (behind a load balancer), plus the staff tool's own connection:
 * whatever one of them does to a session or to content counts on the other at the very next request, in
 * every form the content is sent in (the client row and the session are read for every request; nothing
 * about them is kept in-process beyond the next write to the database by anyone: db/committed-reads.ts).
 */
describe.each(databases)('two instances sharing a database ($name)', (target) => {
  let t: TestApp;
  let other: FastifyInstance;
  beforeAll(async () => {
    t = await buildTestApp(target);
    other = await secondInstance(t);
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  const ENCODINGS = ['identity', 'br', 'gzip'] as const;
  const decode = (encoding: string | undefined, body: Buffer) =>
    encoding === 'br' ? brotliDecompressSync(body) : encoding === 'gzip' ? gunzipSync(body) : body;

  /** Status and decoded body of GET content on an instance, for each way it can be sent. */
  async function content(instance: FastifyInstance, cookie: string, url = '/api/demo/content') {
    const answers: { status: number; body: string }[] = [];
    for (const encoding of ENCODINGS) {
      const response = await instance.inject({
        method: 'GET',
        url,
        headers: { cookie, 'accept-encoding': encoding },
      });
      const sent = response.headers['content-encoding'];
      if (response.statusCode === 200) {
        expect(sent).toBe(encoding === 'identity' ? undefined : encoding);
      }
      const body = decode(sent as string | undefined, response.rawPayload).toString('utf8');
      answers.push({ status: response.statusCode, body });
    }
    return answers;
  }
  const statuses = async (instance: FastifyInstance, cookie: string) =>
    (await content(instance, cookie)).map((a) => a.status);

  it('should refuse a session logged out on the other instance at once, however the content is asked for', async () => {
    const cookie = await loginOpen(t.app);
    // Both instances have served (and cached) the content for this session.
    expect(await statuses(t.app, cookie)).toEqual([200, 200, 200]);
    expect(await statuses(other, cookie)).toEqual([200, 200, 200]);
    const out = await other.inject({ method: 'GET', url: '/api/demo/logout', headers: { cookie } });
    expect(out.statusCode).toBe(303);
    expect(await statuses(t.app, cookie)).toEqual([401, 401, 401]);
    expect((await content(t.app, cookie))[0]?.body).toBe(
      JSON.stringify({ error: 'You are not logged in. Please log in again.' }),
    );
    const me = await t.app.inject({ method: 'GET', url: '/api/demo', headers: { cookie } });
    expect(me.json()).toMatchObject({ logged_in: false });
  });

  it('should refuse a session removed from the database by anyone (the hourly purge, staff) at once', async () => {
    const cookie = await loginMagic(t);
    // A northbank session, asked of demo.
    expect(await statuses(t.app, cookie)).toEqual([401, 401, 401]);
    const northbank = (url: string) =>
      t.app.inject({ method: 'GET', url, headers: { cookie, 'accept-encoding': 'br' } });
    expect((await northbank('/api/northbank/content')).statusCode).toBe(200);
    const signed = decodeURIComponent(cookie.slice(cookie.indexOf('=') + 1));
    const token = signed.slice(0, signed.lastIndexOf('.'));
    const db = await openDatabase(t.config);
    try {
      const removed = await db.kysely
        .deleteFrom('sessions')
        .where('id', '=', sha256(token))
        .executeTakeFirst();
      expect(Number(removed.numDeletedRows)).toBe(1);
    } finally {
      await db.close();
    }
    expect((await northbank('/api/northbank/content')).statusCode).toBe(401);
  });

  it('should end a session at its idle limit and its absolute limit on both instances, and not a moment before', async () => {
    const start = t.clock.current;
    try {
      const idle = await loginOpen(t.app);
      t.clock.advance(SESSION_IDLE_MS - MINUTE);
      // Just inside the idle limit on one instance: that use moves last_seen_at on for both.
      expect(await statuses(other, idle)).toEqual([200, 200, 200]);
      t.clock.advance(SESSION_IDLE_MS - MINUTE);
      expect(await statuses(t.app, idle)).toEqual([200, 200, 200]);
      t.clock.advance(SESSION_IDLE_MS);
      expect(await statuses(t.app, idle)).toEqual([401, 401, 401]);
      expect(await statuses(other, idle)).toEqual([401, 401, 401]);

      const absolute = await loginOpen(other);
      // Used every 11 hours it never idles out, but ends at 30 days all the same.
      let used = 0;
      while (used + 11 * HOUR < SESSION_ABSOLUTE_MS) {
        t.clock.advance(11 * HOUR);
        used += 11 * HOUR;
        expect((await statuses(used % (22 * HOUR) === 0 ? t.app : other, absolute))[1]).toBe(200);
      }
      t.clock.advance(SESSION_ABSOLUTE_MS - used);
      expect(await statuses(t.app, absolute)).toEqual([401, 401, 401]);
      expect(await statuses(other, absolute)).toEqual([401, 401, 401]);
    } finally {
      t.clock.current = start;
    }
  });

  it("should not let one client's session in on another client, before or after it was used", async () => {
    const cookie = await loginOpen(t.app);
    expect(await statuses(t.app, cookie)).toEqual([200, 200, 200]);
    for (const instance of [t.app, other]) {
      const response = await instance.inject({
        method: 'GET',
        url: '/api/northbank/content',
        headers: { cookie, 'accept-encoding': 'br' },
      });
      expect(response.statusCode).toBe(401);
    }
    const unknown = await t.app.inject({
      method: 'GET',
      url: '/api/nobody/content',
      headers: { cookie },
    });
    expect(unknown.statusCode).toBe(404);
  });

  it('should send content imported through another connection at once, in every encoding', async () => {
    const cookie = await loginOpen(t.app);
    const before = await content(t.app, cookie);
    expect(before.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(before.map((a) => a.body)).size).toBe(1);
    expect(before[0]?.body).toContain('Harbour Quay apartments');
    const importFolder = async (folder: string) => {
      const db = await openDatabase(t.config);
      try {
        const client = await findClientByPrefix(db.kysely, 'demo');
        if (client === undefined) throw new Error('demo client missing');
        await importContent(db.kysely, client, folder, path.join(t.dataDir, 'media'), new Date());
      } finally {
        await db.close();
      }
    };
    const folder = await mkdtemp(path.join(tmpdir(), 'firm-content-'));
    try {
      await cp(path.join(FIXTURE_CONTENT, 'demo'), folder, { recursive: true });
      const file = path.join(folder, 'case-studies', 'harbour-quay.md');
      const text = await readFile(file, 'utf8');
      await writeFile(file, text.replace('Harbour Quay apartments', 'Renamed Quay apartments'));
      await importFolder(folder);
      for (const instance of [t.app, other]) {
        const after = await content(instance, cookie);
        expect(after.map((a) => a.status)).toEqual([200, 200, 200]);
        for (const answer of after) {
          expect(answer.body).toContain('Renamed Quay apartments');
          expect(answer.body).not.toContain('Harbour Quay apartments');
        }
      }
    } finally {
      await importFolder(path.join(FIXTURE_CONTENT, 'demo'));
      await rm(folder, { recursive: true, force: true });
    }
    expect(await content(t.app, cookie)).toEqual(before);
  });
});
