import {
  Migrator,
  PostgresAdapter,
  sql,
  type Kysely,
  type Migration,
  type MigrationProvider,
} from 'kysely';
import { StorageError, WRITABLE_DATA_DIR, codeOf, storageProblem } from '../storage-error.js';
import type { Database } from './schema.js';
import { searchTextOf } from './search-text.js';

/** In-code migrations: append new ones, never edit a released one. */
export const migrations: Record<string, Migration> = {
  '2026-11-21-001-initial': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('prefix', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('branding', 'text', (c) => c.notNull())
        .addColumn('login_policy', 'text', (c) => c.notNull())
        .addColumn('contact_phone', 'text')
        .addColumn('contact_email', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('users')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('verified', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('users_verified_email')
        .unique()
        .on('users')
        .columns(['client_id', 'email'])
        .where(sql.ref('verified'), '=', 1)
        .execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_seen_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

      await db.schema
        .createTable('login_tokens')
        .addColumn('hash', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('phone', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createIndex('login_tokens_expires')
        .on('login_tokens')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('login_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_attempts_key_at')
        .on('login_attempts')
        .columns(['key', 'at'])
        .execute();
      await db.schema.createIndex('login_attempts_at').on('login_attempts').column('at').execute();

      await db.schema
        .createTable('content_items')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('slug', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('summary', 'text', (c) => c.notNull())
        .addColumn('body_text', 'text', (c) => c.notNull())
        .addColumn('html', 'text', (c) => c.notNull())
        .addColumn('image_url', 'text')
        .addColumn('pro_tip', 'text')
        .addColumn('sort_order', 'integer', (c) => c.notNull())
        .addColumn('related', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('content_items_client_type_slug', ['client_id', 'type', 'slug'])
        .execute();
      await db.schema
        .createIndex('content_items_client_type_order')
        .on('content_items')
        .columns(['client_id', 'type', 'sort_order'])
        .execute();
      await db.schema
        .createIndex('content_items_client_slug')
        .on('content_items')
        .columns(['client_id', 'slug'])
        .execute();

      await db.schema
        .createTable('videos')
        .addColumn('client_id', 'text', (c) => c.primaryKey().references('clients.id'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('src', 'text', (c) => c.notNull())
        .addColumn('poster', 'text')
        .addColumn('captions', 'text')
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('sequences')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('sequences_pk', ['kind', 'year'])
        .execute();

      await db.schema
        .createTable('quotes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reference', 'text', (c) => c.notNull().unique())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('input', 'text', (c) => c.notNull())
        .addColumn('quote', 'text', (c) => c.notNull())
        .addColumn('rate_table_version', 'text', (c) => c.notNull())
        .addColumn('contact_name', 'text', (c) => c.notNull())
        .addColumn('contact_phone', 'text', (c) => c.notNull())
        .addColumn('contact_email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('quotes_client_created')
        .on('quotes')
        .columns(['client_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('due_diligence')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('reference', 'text', (c) => c.notNull().unique())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('project_name', 'text', (c) => c.notNull())
        .addColumn('project_address', 'text', (c) => c.notNull())
        .addColumn('city_postcode', 'text', (c) => c.notNull())
        .addColumn('project_description', 'text', (c) => c.notNull())
        .addColumn('build_cost', 'text', (c) => c.notNull())
        .addColumn('gdv', 'text', (c) => c.notNull())
        .addColumn('loan_amount', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('full_name', 'text', (c) => c.notNull())
        .addColumn('attachment_path', 'text')
        .addColumn('attachment_name', 'text')
        .addColumn('attachment_size', 'integer')
        .addColumn('attachment_sha256', 'text')
        .addColumn('attachment_mime', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('due_diligence_client_created')
        .on('due_diligence')
        .columns(['client_id', 'created_at'])
        .execute();

      await db.schema
        .createTable('activity')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('client_id', 'text', (c) => c.notNull().references('clients.id'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('item', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('activity_client_at')
        .on('activity')
        .columns(['client_id', 'at'])
        .execute();

      await db.schema
        .createTable('outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('next_attempt_at', 'text', (c) => c.notNull())
        .addColumn('locked_until', 'text')
        .addColumn('sent_at', 'text')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('outbox_due')
        .on('outbox')
        .columns(['sent_at', 'next_attempt_at'])
        .execute();
    },
  },
  '2026-11-21-002-content-version': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('clients')
        .addColumn('content_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  // Search reads one column folded in JavaScript (SQLite's lower() folds ASCII letters only), holding the text
  // of an item and never its markup (the pro tip's HTML was searched as it is stored: "strong" found tags).
  '2026-11-21-003-content-search-text': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('content_items')
        .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
        .execute();
      const typed = db as unknown as Kysely<Database>;
      const rows = await typed
        .selectFrom('content_items')
        .select(['id', 'title', 'summary', 'body_text'])
        .execute();
      for (const row of rows) {
        await typed
          .updateTable('content_items')
          .set({ search_text: searchTextOf(row.title, row.summary, row.body_text) })
          .where('id', '=', row.id)
          .execute();
      }
    },
  },
  // A submission sent again with the key of one already stored (a retry after a lost answer) is answered from
  // that row instead of being stored twice; the key is the user's, so two users' keys never meet.
  '2026-11-22-004-quote-idempotency-key': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('quotes').addColumn('idempotency_key', 'text').execute();
      await db.schema
        .createIndex('quotes_user_idempotency_key')
        .unique()
        .on('quotes')
        .columns(['user_id', 'idempotency_key'])
        .where(sql.ref('idempotency_key'), 'is not', null)
        .execute();
    },
  },
  '2026-11-22-005-due-diligence-idempotency-key': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('due_diligence').addColumn('idempotency_key', 'text').execute();
      await db.schema
        .createIndex('due_diligence_user_idempotency_key')
        .unique()
        .on('due_diligence')
        .columns(['user_id', 'idempotency_key'])
        .where(sql.ref('idempotency_key'), 'is not', null)
        .execute();
    },
  },
  // References are numbered per client (one counter per kind and year for every client let a client read the
  // firm's volume and other clients' activity from the gaps between its own references). Each client's
  // counter carries on from the highest number that client already holds of that kind and year, so no client
  // is ever given a reference it holds; the old global counters are dropped. Two clients may now hold the
  // same reference: it is unique per client.
  '2026-11-23-006-references-per-client': {
    async up(db: Kysely<unknown>) {
      const typed = db as unknown as Kysely<Database>;
      const held = new Map<
        string,
        { client_id: string; kind: string; year: number; value: number }
      >();
      const stored = await typed
        .selectFrom('quotes')
        .select(['client_id', 'reference'])
        .unionAll(typed.selectFrom('due_diligence').select(['client_id', 'reference']))
        .execute();
      for (const { client_id, reference } of stored) {
        // What nextReference makes: the kind, the year, the number (six digits or more).
        const match = /^([A-Z]+)-(\d{4})-(\d{6,})$/.exec(reference);
        if (match === null) continue; // never one nextReference could give again
        const [, kind = '', year = '', number = ''] = match;
        const key = JSON.stringify([client_id, kind, year]);
        const value = Number(number);
        const counter = held.get(key);
        if (counter === undefined) held.set(key, { client_id, kind, year: Number(year), value });
        else counter.value = Math.max(counter.value, value);
      }

      await db.schema.alterTable('sequences').renameTo('sequences_global').execute();
      await db.schema
        .createTable('sequences')
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('year', 'integer', (c) => c.notNull())
        .addColumn('value', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('sequences_client_kind_year_pk', ['client_id', 'kind', 'year'])
        .execute();
      for (const counter of held.values()) {
        await typed.insertInto('sequences').values(counter).execute();
      }
      await db.schema.dropTable('sequences_global').execute();

      // quotes and due_diligence alike: their reference becomes unique per client, not on its own.
      for (const table of ['quotes', 'due_diligence'] as const) {
        if (db.getExecutor().adapter instanceof PostgresAdapter) {
          const constraint = `${table}_reference_key`;
          await sql`alter table ${sql.id(table)} drop constraint ${sql.id(constraint)}`.execute(db);
        } else {
          // SQLite cannot drop a column's UNIQUE: the table is rebuilt without it, as it stands after the
          // migrations above (same columns, same indexes). Nothing references it, so dropping the old one checks
          // no foreign key.
          await rebuildSqliteTable(db, table, REBUILT_COLUMNS[table], async () => {
            await db.schema
              .createIndex(`${table}_client_created`)
              .on(table)
              .columns(['client_id', 'created_at'])
              .execute();
            await db.schema
              .createIndex(`${table}_user_idempotency_key`)
              .unique()
              .on(table)
              .columns(['user_id', 'idempotency_key'])
              .where(sql.ref('idempotency_key'), 'is not', null)
              .execute();
          });
        }
        await db.schema
          .createIndex(`${table}_client_reference`)
          .unique()
          .on(table)
          .columns(['client_id', 'reference'])
          .execute();
      }
    },
  },
  // Indexes for the work the server and the staff tool do beside the routes' reads (found by the twenty-first
  // session's profile and scale probe; the query plans of every statement the routes, the outbox worker and the
  // sweeps run are held by test/db/query-plans.test.ts).
  // - The outbox is claimed lane by lane (mail, forwards: outbox-worker.ts), each claim asking for one kind's unsent
  //   rows, oldest due first. Without the kind in the index, a lane read every unsent row of the other kind, one
  //   table lookup each: with thousands of e-mails queued behind a burst of quotes, the forwards lane's empty
  //   claim went through them all after every write (10% of the server's time in the POST bench). The kind leads
  //   the index now, and every claim names its kind.
  // - The hourly purge deletes sessions past their absolute limit or idle for too long: the idle side read every
  //   session.
  // - The upload sweep asks which stored file names a due-diligence row holds: it read every row.
  // - Switching a client to magic-link ends its open logins' sessions: it read every session and user.
  '2026-11-27-007-background-work-indexes': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createIndex('outbox_kind_due')
        .on('outbox')
        .columns(['kind', 'sent_at', 'next_attempt_at'])
        .execute();
      await db.schema.dropIndex('outbox_due').execute();
      await db.schema
        .createIndex('sessions_last_seen')
        .on('sessions')
        .column('last_seen_at')
        .execute();
      await db.schema
        .createIndex('due_diligence_attachment_path')
        .on('due_diligence')
        .column('attachment_path')
        .execute();
      await db.schema.createIndex('sessions_client').on('sessions').column('client_id').execute();
    },
  },
  // Who claimed an outbox row (found by the twenty-eighth session's probe: after a SIGKILL, the login links and team
  // mails the killed worker had claimed waited for their five-minute lease, though the server was back in seconds).
  '2026-11-28-008-outbox-claimant': {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('outbox').addColumn('claimed_by', 'text').execute();
    },
  },
};

type ColumnList = [name: string, type: 'text' | 'integer', constraint: string][];

/** `quotes` as it stands after 2026-11-22-004, its reference no longer unique on its own. */
const QUOTES_COLUMNS: ColumnList = [
  ['id', 'text', 'primary key'],
  ['reference', 'text', 'not null'],
  ['kind', 'text', 'not null'],
  ['client_id', 'text', 'not null references clients (id)'],
  ['user_id', 'text', 'not null references users (id)'],
  ['input', 'text', 'not null'],
  ['quote', 'text', 'not null'],
  ['rate_table_version', 'text', 'not null'],
  ['contact_name', 'text', 'not null'],
  ['contact_phone', 'text', 'not null'],
  ['contact_email', 'text', 'not null'],
  ['created_at', 'text', 'not null'],
  ['idempotency_key', 'text', ''],
];

/** `due_diligence` as it stands after 2026-11-22-005, its reference no longer unique on its own. */
const DUE_DILIGENCE_COLUMNS: ColumnList = [
  ['id', 'text', 'primary key'],
  ['reference', 'text', 'not null'],
  ['client_id', 'text', 'not null references clients (id)'],
  ['user_id', 'text', 'not null references users (id)'],
  ['project_name', 'text', 'not null'],
  ['project_address', 'text', 'not null'],
  ['city_postcode', 'text', 'not null'],
  ['project_description', 'text', 'not null'],
  ['build_cost', 'text', 'not null'],
  ['gdv', 'text', 'not null'],
  ['loan_amount', 'text', 'not null'],
  ['email', 'text', 'not null'],
  ['full_name', 'text', 'not null'],
  ['attachment_path', 'text', ''],
  ['attachment_name', 'text', ''],
  ['attachment_size', 'integer', ''],
  ['attachment_sha256', 'text', ''],
  ['attachment_mime', 'text', ''],
  ['created_at', 'text', 'not null'],
  ['idempotency_key', 'text', ''],
];

/** The tables 2026-11-23-006 rebuilds on SQLite, with their columns. */
const REBUILT_COLUMNS = { quotes: QUOTES_COLUMNS, due_diligence: DUE_DILIGENCE_COLUMNS };

/**
 * SQLite's way to change a constraint: a new table with the new definition, the rows copied, the old table
 * dropped (its indexes with it) and the new one renamed in its place, then the indexes made again.
 */
async function rebuildSqliteTable(
  db: Kysely<unknown>,
  table: string,
  columns: ColumnList,
  indexes: () => Promise<void>,
): Promise<void> {
  const next = `${table}_next`;
  const definitions = columns.map(([name, type, constraint]) =>
    sql.raw(`"${name}" ${type} ${constraint}`.trim()),
  );
  const names = sql.join(columns.map(([name]) => sql.id(name)));
  await sql`create table ${sql.id(next)} (${sql.join(definitions)})`.execute(db);
  await sql`insert into ${sql.id(next)} (${names}) select ${names} from ${sql.id(table)}`.execute(
    db,
  );
  await db.schema.dropTable(table).execute();
  await db.schema.alterTable(next).renameTo(table).execute();
  await indexes();
}

const provider: MigrationProvider = {
  getMigrations: () => Promise.resolve(migrations),
};

/**
 * How long a start (or the staff tool) waits for another process that holds the SQLite database's write lock:
 * a second start migrating it, or the staff tool importing content, which usually lets go within seconds.
 * Fastify's own limit on a plugin's start (`pluginTimeout` in app.ts) is set above it, so the wait ends with
 * this module's plain message rather than Fastify's "Plugin did not start in time".
 */
export const START_LOCK_WAIT_MS = 60_000;

const busy = (error: unknown): boolean =>
  String((error as { code?: unknown } | null)?.code ?? '').startsWith('SQLITE_BUSY');

export interface MigrateOptions {
  /** How long to keep trying while another process holds the lock (default START_LOCK_WAIT_MS). */
  lockWaitMs?: number;
  /** Told once, when the first try finds the database locked by another process (the wait has begun). */
  onLockWait?: (waitMs: number) => void;
}

/**
 * Brings the schema up to date; throws with the failing migration's error. On SQLite the migrations run in one
 * transaction that reads, then writes: when another process (a second start, the staff tool) migrates or writes
 * the same database at that moment, SQLite refuses the upgrade at once (SQLITE_BUSY; waiting inside could
 * deadlock). Nothing was written, so it is tried again shortly, for up to `lockWaitMs`; a lock held longer
 * is a StorageError with one plain line saying so.
 */
export async function migrateToLatest(
  db: Kysely<unknown>,
  schema: string | null,
  { lockWaitMs = START_LOCK_WAIT_MS, onLockWait }: MigrateOptions = {},
): Promise<void> {
  const migrator = new Migrator({
    db,
    provider,
    ...(schema === null ? {} : { migrationTableSchema: schema }),
  });
  const started = Date.now();
  let outcome = await migrator.migrateToLatest();
  if (busy(outcome.error)) onLockWait?.(lockWaitMs);
  while (busy(outcome.error) && Date.now() - started < lockWaitMs) {
    await new Promise((resolve) => setTimeout(resolve, 50 + Math.random() * 100));
    outcome = await migrator.migrateToLatest();
  }
  if (busy(outcome.error)) {
    throw new StorageError(
      `The database is locked by another process (a server or the staff tool using the same DATA_DIR), ` +
        `which held it for ${Math.round((Date.now() - started) / 1000)} s. Try again once it has finished.`,
      { cause: outcome.error },
    );
  }
  const { error, results } = outcome;
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined) {
    const cause = error instanceof Error ? error : new Error(String(error));
    // A full or read-only disk is the operator's to fix: one plain line, as at the database's opening.
    const problem = storageProblem(codeOf(cause));
    if (problem !== undefined) {
      throw new StorageError(
        `The database cannot be brought up to date: ${problem} (${codeOf(cause)}). ${WRITABLE_DATA_DIR}`,
        { cause },
      );
    }
    // The cause's message is said by whoever shows the error (the log appends it, as the staff tool does). Found by
    // the twenty-fifth session's PostgreSQL probe: "Database migration  failed: X: X", with no name between the
    // words when none had run, and the cause's message in the log twice.
    throw new Error(
      `Database migration${failed === undefined ? '' : ` ${failed.migrationName}`} failed`,
      { cause },
    );
  }
}
