import { request as httpRequest } from 'node:http';
import { readdir, statfs } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { HOUR } from '../../src/clock.js';
import { MAX_BODY_BYTES, TOO_MANY_REQUESTS } from '../../src/routes/api/due-diligence.js';
import { TOO_MANY_QUOTES } from '../../src/routes/api/submissions.js';
import { NO_ROOM_MESSAGE } from '../../src/services/disk-space.js';
import {
  buildTestApp,
  databases,
  listenLocally,
  loginOpen,
  multipart,
  pdf,
  type TestApp,
} from '../helper.js';
import { DUE_DILIGENCE_FIELDS, VALID_BODIES } from './support.js';

/**
 * One visitor must not be able to fill the disk (found by the seventh session's exhaustion probe: ten 19 MB
 * due diligence uploads in 2.3 s from one session, each kept twice with its queued e-mail). A user may store
 * DUE_DILIGENCE_LIMIT_PER_HOUR requests an hour, an address DUE_DILIGENCE_LIMIT_PER_ADDRESS, refused before the
 * body is read; and no submission or file is stored while the data folder's file system is below
 * MIN_FREE_DISK_MB.
 */
describe.each(databases)('submission limits ($name)', (target) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const uploads = async (app: TestApp) => {
    try {
      return await readdir(path.join(app.dataDir, 'uploads'));
    } catch {
      return [];
    }
  };
  const stored = async (app: TestApp, table: 'due_diligence' | 'quotes') =>
    (await app.app.db.kysely.selectFrom(table).select('id').execute()).length;
  const postForm = (app: TestApp, cookie: string, fields = DUE_DILIGENCE_FIELDS) => {
    const form = multipart(fields, { filename: 'scheme.pdf', content: pdf(64 * 1024) });
    return app.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie },
    });
  };
  const postQuote = (app: TestApp, cookie: string) =>
    app.app.inject({
      method: 'POST',
      url: '/api/demo/warranty',
      payload: warranty,
      headers: { cookie },
    });
  const warranty = {
    build_type: 'New Build',
    stageType: 'Not Started',
    units: 12,
    build_value: 2_500_000,
    GDV: 6_000_000,
    name: 'Ada Lovelace',
    telephone: '020 7946 0000',
    email: 'ada@example.com',
  };

  it('should store at most the hourly number of due diligence requests a user, counting only stored ones', async () => {
    t = await buildTestApp(target, { DUE_DILIGENCE_LIMIT_PER_HOUR: '2' });
    const cookie = await loginOpen(t.app);
    expect((await postForm(t, cookie)).statusCode).toBe(303);
    // A refused form stores nothing, so it does not count.
    const { SingleLine: _name, ...withoutName } = DUE_DILIGENCE_FIELDS;
    expect((await postForm(t, cookie, withoutName)).statusCode).toBe(400);
    expect((await postForm(t, cookie)).statusCode).toBe(303);

    const refused = await postForm(t, cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MANY_REQUESTS });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(HOUR / 1000);
    expect(await stored(t, 'due_diligence')).toBe(2);
    expect(await uploads(t)).toHaveLength(2);

    // Another user is not held back by the first one's count, and the first may go on after the hour.
    const other = await loginOpen(t.app, 'demo', { email: 'grace@example.com' });
    expect((await postForm(t, other)).statusCode).toBe(303);
    t.clock.advance(HOUR);
    expect((await postForm(t, cookie)).statusCode).toBe(303);
    expect(await stored(t, 'due_diligence')).toBe(4);
  });

  it('should also limit an address, since on an open client every login is a new user', async () => {
    t = await buildTestApp(target, {
      DUE_DILIGENCE_LIMIT_PER_HOUR: '1000',
      DUE_DILIGENCE_LIMIT_PER_ADDRESS: '2',
    });
    for (const email of ['a@example.com', 'b@example.com']) {
      expect((await postForm(t, await loginOpen(t.app, 'demo', { email }))).statusCode).toBe(303);
    }
    const third = await postForm(t, await loginOpen(t.app, 'demo', { email: 'c@example.com' }));
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ error: TOO_MANY_REQUESTS });
    expect(await stored(t, 'due_diligence')).toBe(2);
  });

  // Found by the twenty-second session's API probe: 150 quotes in two seconds from one session, each e-mailing the
  // team.
  it('should store at most the hourly number of quotes a user, the three calculators together', async () => {
    t = await buildTestApp(target, { QUOTE_LIMIT_PER_HOUR: '3' });
    const cookie = await loginOpen(t.app);
    expect((await postQuote(t, cookie)).statusCode).toBe(201);
    // A quote refused as malformed stores nothing, so it does not count; nor does a key reused for another quote.
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/demo/warranty',
      payload: { ...warranty, units: -1 },
      headers: { cookie },
    });
    expect(bad.statusCode).toBe(400);
    const keyed = (body: Record<string, unknown>) =>
      t?.app.inject({
        method: 'POST',
        url: '/api/demo/warranty',
        payload: body,
        headers: { cookie, 'idempotency-key': 'one' },
      });
    expect((await keyed(warranty))?.statusCode).toBe(201);
    expect((await keyed({ ...warranty, units: 13 }))?.statusCode).toBe(409);
    const car = await t.app.inject({
      method: 'POST',
      url: '/api/demo/car',
      payload: VALID_BODIES['POST /api/:client/car'],
      headers: { cookie },
    });
    expect(car.statusCode, car.body).toBe(201);

    const refused = await postQuote(t, cookie);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ error: TOO_MANY_QUOTES });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(HOUR / 1000);
    expect(await stored(t, 'quotes')).toBe(3);
    const mails = await t.app.db.kysely.selectFrom('outbox').select('id').execute();
    expect(mails).toHaveLength(3);
    // Past the limit, a resend of a stored quote under its key is still answered from it (its answer was lost);
    // another submission under that key is still a 409, and nothing new is stored.
    const resent = await keyed(warranty);
    expect(resent?.statusCode).toBe(201);
    expect(resent?.headers['idempotent-replayed']).toBe('true');
    expect((await keyed({ ...warranty, units: 14 }))?.statusCode).toBe(409);
    expect(await stored(t, 'quotes')).toBe(3);

    const other = await loginOpen(t.app, 'demo', { email: 'grace@example.com' });
    expect((await postQuote(t, other)).statusCode).toBe(201);
    t.clock.advance(HOUR);
    expect((await postQuote(t, cookie)).statusCode).toBe(201);
  });

  it('should also limit the quotes of an address', async () => {
    t = await buildTestApp(target, { QUOTE_LIMIT_PER_HOUR: '1000', QUOTE_LIMIT_PER_ADDRESS: '2' });
    for (const email of ['a@example.com', 'b@example.com']) {
      expect((await postQuote(t, await loginOpen(t.app, 'demo', { email }))).statusCode).toBe(201);
    }
    const third = await postQuote(t, await loginOpen(t.app, 'demo', { email: 'c@example.com' }));
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ error: TOO_MANY_QUOTES });
    expect(await stored(t, 'quotes')).toBe(2);
  });

  it('should refuse a request past the limit before its file is read, and the client should read the answer', async () => {
    t = await buildTestApp(target, { DUE_DILIGENCE_LIMIT_PER_HOUR: '1' });
    const cookie = await loginOpen(t.app);
    expect((await postForm(t, cookie)).statusCode).toBe(303);
    const port = await listenLocally(t.app);
    const form = multipart(DUE_DILIGENCE_FIELDS, {
      filename: 'big.pdf',
      content: pdf(8 * 1024 * 1024),
    });
    // Sent over a real connection in chunks, as a browser does: the answer comes before the body is all sent.
    const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/demo/due-diligence',
          headers: {
            ...form.headers,
            cookie,
            'content-length': String(form.payload.length),
          },
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      for (let at = 0; at < form.payload.length; at += 64 * 1024) {
        req.write(form.payload.subarray(at, at + 64 * 1024));
      }
      req.end();
    });
    expect(answer.status).toBe(429);
    expect(JSON.parse(answer.body)).toEqual({ error: TOO_MANY_REQUESTS });
    expect(await uploads(t)).toHaveLength(1);
    expect(await stored(t, 'due_diligence')).toBe(1);
  });

  it('should store no quote or file while the disk is nearly full, and keep reading and logging in', async () => {
    // A minimum no disk has free: every write the portal may refuse is refused.
    t = await buildTestApp(target, { MIN_FREE_DISK_MB: '100000000' });
    const cookie = await loginOpen(t.app);

    const quote = await postQuote(t, cookie);
    expect(quote.statusCode).toBe(507);
    expect(quote.json()).toEqual({ error: NO_ROOM_MESSAGE });
    expect(quote.headers['cache-control']).toBe('no-store');
    expect(await stored(t, 'quotes')).toBe(0);

    const form = await postForm(t, cookie);
    expect(form.statusCode).toBe(507);
    expect(form.json()).toEqual({ error: NO_ROOM_MESSAGE });
    expect(await uploads(t)).toHaveLength(0);
    expect(await stored(t, 'due_diligence')).toBe(0);

    const content = await t.app.inject({ url: '/api/demo/content', headers: { cookie } });
    expect(content.statusCode).toBe(200);
    expect(await loginOpen(t.app, 'demo', { email: 'grace@example.com' })).toMatch(/^sid=/);
  });

  // Found by the twenty-ninth session's probe: each upload was judged against the same reading of the free space,
  // so eight 19 MB uploads sent together where the minimum left room for two were all stored, leaving the disk
  // 48 MB under the minimum. The room a request may take (its body and its mail's copy) is now held while it is
  // stored.
  it('should hold the room of an upload under way, so that uploads sent together cannot all take it', async () => {
    const room = 2 * MAX_BODY_BYTES;
    // A minimum that leaves room for one request under way, not two (the test's data folder is in tmpdir()).
    const { bavail, bsize } = await statfs(tmpdir());
    const minimumMb = Math.floor((bavail * bsize - 1.5 * room) / (1024 * 1024));
    t = await buildTestApp(target, { MIN_FREE_DISK_MB: String(minimumMb) });
    const app = t;
    const cookie = await loginOpen(app.app);
    const port = await listenLocally(app.app);
    const form = multipart(DUE_DILIGENCE_FIELDS, {
      filename: 'scheme.pdf',
      content: pdf(256 * 1024),
    });
    let send: () => void = () => undefined;
    const first = new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        {
          host: '127.0.0.1',
          port,
          method: 'POST',
          path: '/api/demo/due-diligence',
          headers: { ...form.headers, cookie, 'content-length': String(form.payload.length) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      // Half the body now: the file is being received (a partial file in the uploads folder).
      const half = Math.floor(form.payload.length / 2);
      req.write(form.payload.subarray(0, half));
      send = () => req.end(form.payload.subarray(half));
    });
    while (!(await uploads(app)).some((name) => name.startsWith('tmp-'))) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    const second = await postForm(app, cookie);
    expect(second.statusCode).toBe(507);
    expect(second.json()).toEqual({ error: NO_ROOM_MESSAGE });

    send();
    expect(await first).toBe(303);
    // Its room is given back once it is stored (what it wrote is then in the file system's reading).
    expect((await postForm(app, cookie)).statusCode).toBe(303);
    expect(await stored(app, 'due_diligence')).toBe(2);
  });

  it('should store quotes and files when the minimum is off or met', async () => {
    t = await buildTestApp(target, { MIN_FREE_DISK_MB: '0' });
    const cookie = await loginOpen(t.app);
    const quote = await postQuote(t, cookie);
    expect(quote.statusCode).toBe(201);
    expect((await postForm(t, cookie)).statusCode).toBe(303);
  });
});
