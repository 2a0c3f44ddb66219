import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClientByPrefix, type Client } from '../../src/repositories/clients.js';
import { listContent } from '../../src/repositories/content.js';
import { importContent, readClientFile } from '../../src/services/content-import.js';
import { buildTestApp, databases, loginOpen, type TestApp } from '../helper.js';

/**
 * What PostgreSQL refuses that SQLite took, reached through the staff tool's content import: an `order` past
 * PostgreSQL's `integer`, and NUL characters or lone surrogates written as YAML or JSON escapes. Each is a plain
 * error naming the file, the same on both databases, before anything is written (it was PostgreSQL's own
 * message, "value … is out of range for type integer" or "invalid byte sequence for encoding "UTF8": 0x00",
 * while SQLite stored it).
 */
describe.each(databases)(
  'content import of text and numbers PostgreSQL refuses ($name)',
  (target) => {
    let t: TestApp;
    let demo: Client;
    let folder: string;
    const now = new Date('2026-03-02T09:00:00.000Z');

    beforeAll(async () => {
      t = await buildTestApp(target);
      const found = await findClientByPrefix(t.app.db.kysely, 'demo');
      if (found === undefined) throw new Error('demo client missing');
      demo = found;
      folder = await mkdtemp(path.join(tmpdir(), 'firm-pg-import-'));
      await mkdir(path.join(folder, 'insights'));
    });
    afterAll(async () => {
      await rm(folder, { recursive: true, force: true });
      await t.close();
    });

    async function importInsight(markdown: string): Promise<unknown> {
      await writeFile(path.join(folder, 'insights', 'hostile.md'), markdown);
      return importContent(t.app.db.kysely, demo, folder, path.join(t.dataDir, 'media'), now).then(
        () => undefined,
        (error: unknown) => error,
      );
    }

    it.each([3_000_000_000, -2_147_483_649, '1e300', '99999999999999999999999'])(
      'should refuse an order of %s in plain words',
      async (order) => {
        const error = await importInsight(
          `---\ntitle: A\nsummary: B\norder: ${order}\n---\nBody.\n`,
        );
        expect(error).toBeInstanceOf(Error);
        expect((error as Error).message).toBe(
          'insights/hostile.md: front matter "order" must be a whole number from -2147483648 to 2147483647.',
        );
      },
    );

    it('should take the extremes of the order range', async () => {
      for (const order of [2_147_483_647, -2_147_483_648]) {
        expect(
          await importInsight(`---\ntitle: A\nsummary: B\norder: ${order}\n---\nBody.\n`),
        ).toBe(undefined);
      }
    });

    it.each([
      ['a NUL escape in a title', 'title: "A\\0B"\nsummary: B'],
      ['a \\x00 escape in a summary', 'title: A\nsummary: "\\x00"'],
      ['a lone surrogate in a title', 'title: "A\\ud800B"\nsummary: B'],
      ['a lone low surrogate in an image', 'title: A\nsummary: B\nimage: "\\udc00.png"'],
      ['a NUL in a key', 'title: A\nsummary: B\n"k\\0": 1'],
      ['a NUL deep in a list', 'title: A\nsummary: B\nextra:\n  - [1, {x: "\\0"}]'],
    ])('should refuse %s', async (_name, yaml) => {
      const before = await listContent(t.app.db.kysely, demo.id, 'insight');
      const error = await importInsight(`---\n${yaml}\n---\nBody.\n`);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toBe(
        'insights/hostile.md: front matter contains a NUL character or a lone surrogate (a \\0, \\x00 or \\uD800 to \\uDFFF escape).',
      );
      expect(await listContent(t.app.db.kysely, demo.id, 'insight')).toEqual(before);
    });

    it('should refuse JSON front matter holding a NUL escape', async () => {
      const error = await importInsight(
        '---json\n{"title": "A\\u0000", "summary": "B"}\n---\nBody.\n',
      );
      expect((error as Error).message).toMatch(/front matter contains a NUL character/);
    });

    it('should take a pair of surrogates (an emoji written as escapes)', async () => {
      expect(await importInsight('---\ntitle: "A \\ud83d\\ude00"\nsummary: B\n---\nBody.\n')).toBe(
        undefined,
      );
    });

    it('should refuse a NUL escape in client.yml', async () => {
      const other = await mkdtemp(path.join(tmpdir(), 'firm-pg-client-'));
      try {
        await writeFile(path.join(other, 'client.yml'), 'prefix: acme\nname: "Acme\\0 Ltd"\n');
        await expect(readClientFile(other)).rejects.toThrow(
          'client.yml contains a NUL character or a lone surrogate (a \\0, \\x00 or \\uD800 to \\uDFFF escape).',
        );
      } finally {
        await rm(other, { recursive: true, force: true });
      }
    });
  },
);

/**
 * PostgreSQL ending the server's connections (a restart, a failover, `pg_terminate_backend`): the pool reported
 * it as an 'error' event nobody listened to, and the whole server exited ("Shutting down after an error"). It
 * must carry on, and answer the next requests on new connections.
 */
describe.skipIf(process.env.TEST_DATABASE_URL === undefined)(
  'connections PostgreSQL ends (postgres)',
  () => {
    const url = process.env.TEST_DATABASE_URL ?? '';
    const name = `pg-pool-test-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    let t: TestApp;

    beforeAll(async () => {
      const withName = new URL(url);
      withName.searchParams.set('application_name', name);
      t = await buildTestApp({ name: 'postgres', url: withName.toString() });
    });
    afterAll(async () => {
      await t.close();
    });

    /** Ends every connection of this test's app from outside, as an administrator would. */
    async function terminate(): Promise<number> {
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      try {
        const result = await admin.query<{ n: string }>(
          'select count(pg_terminate_backend(pid)) as n from pg_stat_activity where application_name = $1',
          [name],
        );
        return Number(result.rows[0]?.n ?? 0);
      } finally {
        await admin.end();
      }
    }

    it('should survive its idle connections being ended, and answer on new ones', async () => {
      // Open several connections, then let them go back to the pool idle.
      const logins = await Promise.all(Array.from({ length: 3 }, () => loginOpen(t.app, 'demo')));
      expect(logins.every((cookie) => cookie.startsWith('sid='))).toBe(true);
      expect(await terminate()).toBeGreaterThan(0);
      await sleep(300);
      const answer = await t.app.inject({ method: 'GET', url: '/api/demo' });
      expect(answer.statusCode).toBe(200);
      expect(await loginOpen(t.app, 'demo')).toMatch(/^sid=/);
    });

    it('should survive a connection a transaction holds being ended between statements', async () => {
      const held = t.app.db.kysely.transaction().execute(async (trx) => {
        await trx.selectFrom('clients').select('id').execute();
        await sleep(600);
        return trx.selectFrom('clients').select('id').execute();
      });
      const outcome = held.then(
        () => 'committed',
        () => 'failed',
      );
      await sleep(200);
      expect(await terminate()).toBeGreaterThan(0);
      expect(await outcome).toBe('failed');
      await sleep(100);
      const answer = await t.app.inject({ method: 'GET', url: '/api/demo' });
      expect(answer.statusCode).toBe(200);
      expect(await loginOpen(t.app, 'demo')).toMatch(/^sid=/);
    });
  },
);
