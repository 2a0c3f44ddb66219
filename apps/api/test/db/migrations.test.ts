import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrateToLatest, migrations } from '../../src/db/migrations.js';
import type { Database as Schema } from '../../src/db/schema.js';
import { searchFold } from '../../src/db/search-text.js';

describe('migrations', () => {
  let db: Kysely<Schema> | undefined;
  afterEach(async () => {
    await db?.destroy();
    db = undefined;
  });

  it('should fill the search text of items imported before the column existed', async () => {
    db = new Kysely<Schema>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
    const migrator = new Migrator({
      db,
      provider: { getMigrations: () => Promise.resolve(migrations) },
    });
    const { error } = await migrator.migrateTo('2026-11-21-002-content-version');
    expect(error).toBeUndefined();
    await sql`insert into clients (id, prefix, name, branding, login_policy, created_at)
      values ('c1', 'demo', 'Demo', '{}', 'open', '2026-01-01T00:00:00.000Z')`.execute(db);
    await sql`insert into content_items (id, client_id, type, slug, title, summary, body_text, html, pro_tip,
        sort_order, related, updated_at)
      values ('i1', 'c1', 'topic', 'école', 'ÉCOLE Quay', 'A Summary', 'Body words. Tip words.',
        '<p>Body words.</p>', '<p><strong>Tip</strong> words.</p>', 1, '[]', '2026-01-01T00:00:00.000Z')`.execute(
      db,
    );
    await migrateToLatest(db as unknown as Kysely<unknown>, null);
    const row = await db
      .selectFrom('content_items')
      .select('search_text')
      .executeTakeFirstOrThrow();
    expect(row.search_text).toBe('école quay\na summary\nbody words. tip words.');
    expect(row.search_text).toBe(searchFold('ÉCOLE Quay\nA Summary\nBody words. Tip words.'));
    expect(row.search_text).not.toContain('strong');
  });
});
