import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, listClients } from '../../src/repositories/clients.js';
import { importContent } from '../../src/services/content-import.js';
import { buildTestApp, databases, existingClient, loginOpen, type TestApp } from '../helper.js';

/**
 * Found by the thirtieth session's PostgreSQL probe: items of one `order` were listed by title in the database's
 * collation. A PostgreSQL made with a language's locale (initdb takes the system's, commonly en_US.UTF-8 or
 * en_GB.UTF-8) put "apple" before "Banana" and "_x" first, where SQLite (and a PostgreSQL in the C locale) put
 * "Banana" before "apple": the same content listed in a different order on each database, and items of one order
 * and title in no set order at all. The staff tool's client list likewise. Both now order by code point, on any
 * database, with the slug last.
 *
 * PostgreSQL here runs the suite in whatever locale its cluster has (C.UTF-8 in CI), so the test gives the columns
 * a language's collation itself, as such a database gives them by default.
 */
const TITLES = [
  'banana',
  'Apple',
  'apple',
  'Éclair',
  'eclair',
  'Zebra',
  'a-b',
  'ab',
  '10 things',
  '9 things',
  '_x',
  'a b',
];

/** A collation of a language in the test's schema (its name), or a libc one PostgreSQL has. */
async function languageCollation(t: TestApp): Promise<string> {
  try {
    await sql`create collation language_order (provider = icu, locale = 'en-GB-u-ka-shifted')`.execute(
      t.app.db.kysely,
    );
    return 'language_order';
  } catch {
    const { rows } = await sql<{ name: string }>`
      select collname as name from pg_collation where collname ~ '^en_[A-Z]{2}\\.utf-?8$' limit 1
    `.execute(t.app.db.kysely);
    if (rows[0] === undefined)
      throw new Error('PostgreSQL has no collation of a language to test with');
    return rows[0].name;
  }
}

describe.each(databases)('listings in the same order on every database ($name)', (target) => {
  let t: TestApp;
  let folder: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    if (target.name === 'postgres') {
      // A collation of a language, as a database made in such a locale has by default: ICU's, made to pass over
      // punctuation and spaces at first as glibc's en_US.UTF-8 does (PostgreSQL built with ICU, as Debian's and most
      // others are), else any libc one of a language.
      const collation = await languageCollation(t);
      for (const [table, column] of [
        ['content_items', 'title'],
        ['content_items', 'slug'],
        ['clients', 'prefix'],
      ] as const) {
        await sql`alter table ${sql.id(table)} alter column ${sql.id(column)} type text collate ${sql.id(collation)}`.execute(
          t.app.db.kysely,
        );
      }
    }
    folder = await mkdtemp(path.join(tmpdir(), 'firm-collation-'));
    await mkdir(path.join(folder, 'insights'));
    for (const [i, title] of TITLES.entries()) {
      await writeFile(
        path.join(folder, 'insights', `item-${String.fromCharCode(122 - i)}.md`),
        `---\ntitle: "${title}"\nsummary: S\norder: 1\n---\nBody.\n`,
      );
    }
    // Two of one order and one title: the slug decides.
    await writeFile(
      path.join(folder, 'insights', 'twin-b.md'),
      '---\ntitle: Twin\nsummary: S\norder: 2\n---\nB.\n',
    );
    await writeFile(
      path.join(folder, 'insights', 'twin-a.md'),
      '---\ntitle: Twin\nsummary: S\norder: 2\n---\nA.\n',
    );
    const demo = await existingClient(t.app, 'demo');
    await importContent(
      t.app.db.kysely,
      demo,
      folder,
      path.join(t.dataDir, 'media'),
      new Date('2026-03-02T09:00:00Z'),
    );
  });
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true });
    await t.close();
  });

  it('should list items of one order by the code points of their titles, then by slug', async () => {
    const cookie = await loginOpen(t.app);
    const answer = await t.app.inject({ url: '/api/demo/content', headers: { cookie } });
    const insights = answer.json<{ insights: { id: string; title: string }[] }>().insights;
    expect(insights.map((item) => item.title)).toEqual([...[...TITLES].sort(), 'Twin', 'Twin']);
    expect(insights.slice(-2).map((item) => item.id)).toEqual(['twin-a', 'twin-b']);
  });

  it('should list clients by the code points of their prefixes', async () => {
    for (const prefix of ['a-c', 'ab']) {
      await createClient(
        t.app.db.kysely,
        { prefix, name: prefix, loginPolicy: 'open' },
        new Date(),
      );
    }
    expect((await listClients(t.app.db.kysely)).map((c) => c.prefix)).toEqual([
      'a-c',
      'ab',
      'demo',
      'northbank',
    ]);
  });
});
