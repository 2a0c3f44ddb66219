import type { Kysely } from 'kysely';
import { orderedId } from '../db/ordered-id.js';
import { precompiled } from '../db/precompiled.js';
import type { Dialect } from '../db/connect.js';
import type { Database, OutboxTable } from '../db/schema.js';

export interface MailPayload {
  to: string;
  subject: string;
  text: string;
  /** Files under DATA_DIR/uploads to attach: generated name + the name shown to the reader. */
  attachments?: { path: string; filename: string; contentType: string }[];
  /** Logged when mail is written to the outbox folder (no SMTP), e.g. the login link. */
  logLine?: string;
}

export interface ForwardPayload {
  url: string;
  fields: Record<string, string>;
  file?: { path: string; filename: string; contentType: string };
}

export type OutboxJob =
  { kind: 'mail'; payload: MailPayload } | { kind: 'forward'; payload: ForwardPayload };

export type OutboxRow = OutboxTable;

const insertRow = precompiled<'id' | 'kind' | 'payload' | 'now'>(
  ['id', 'kind', 'payload', 'now'],
  (db, slot) =>
    db.insertInto('outbox').values({
      id: slot('id'),
      kind: slot('kind'),
      payload: slot('payload'),
      attempts: 0,
      next_attempt_at: slot('now'),
      locked_until: null,
      sent_at: null,
      last_error: null,
      created_at: slot('now'),
    }),
);

/** The last outbox id made by this process. */
let lastId = '';

/**
 * A time-ordered id (a batch of inserts touches the end of the primary-key index, not a page each), always after
 * the last one made here: rows queued in one millisecond keep their order too, and the outbox folder's files,
 * named by the row, sort in the order their mails were queued.
 */
function nextOutboxId(now: Date): string {
  let id = orderedId(now.getTime());
  if (id <= lastId) {
    // The same millisecond (or the clock went back): one more in the last id's final, random, 48 bits.
    const tail = (Number.parseInt(lastId.slice(-12), 16) + 1) % 2 ** 48;
    id = `${lastId.slice(0, -12)}${tail.toString(16).padStart(12, '0')}`;
  }
  lastId = id;
  return id;
}

export async function enqueue(db: Kysely<Database>, job: OutboxJob, now: Date): Promise<string> {
  const id = nextOutboxId(now);
  await insertRow(db, {
    id,
    kind: job.kind,
    payload: JSON.stringify(job.payload),
    now: now.toISOString(),
  });
  return id;
}

/**
 * Claims up to `limit` due rows for this worker for `leaseMs`, in one statement (an UPDATE of the rows a
 * subquery picks, RETURNING them), oldest due first. On PostgreSQL the subquery locks its rows
 * `FOR UPDATE SKIP LOCKED`, so several instances never claim the same row; SQLite serialises writers.
 * Run it in a transaction (the worker uses `Db.write`, which on SQLite shares the commit with others).
 */
export async function claimDue(
  db: Kysely<Database>,
  dialect: Dialect,
  now: Date,
  leaseMs: number,
  limit: number,
): Promise<OutboxRow[]> {
  const nowIso = now.toISOString();
  const rows = await db
    .updateTable('outbox')
    .set({ locked_until: new Date(now.getTime() + leaseMs).toISOString() })
    .where('id', 'in', (eb) =>
      eb
        .selectFrom('outbox')
        .select('id')
        .where('sent_at', 'is', null)
        .where('next_attempt_at', '<=', nowIso)
        .where((inner) =>
          inner.or([inner('locked_until', 'is', null), inner('locked_until', '<', nowIso)]),
        )
        .orderBy('next_attempt_at')
        .limit(limit)
        .$if(dialect === 'postgres', (qb) => qb.forUpdate().skipLocked()),
    )
    .returningAll()
    .execute();
  // RETURNING gives no order: deliver the oldest first (ties, queued in the same instant, by creation).
  return rows.sort(
    (a, b) => compare(a.next_attempt_at, b.next_attempt_at) || compare(a.created_at, b.created_at),
  );
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Marks delivered rows sent, in one statement (one commit for a whole claimed batch). */
export async function markSent(
  db: Kysely<Database>,
  ids: readonly string[],
  now: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbox')
    .set({ sent_at: now.toISOString(), locked_until: null, last_error: null })
    .where('id', 'in', ids)
    .execute();
}

export async function markFailed(
  db: Kysely<Database>,
  row: OutboxRow,
  error: string,
  nextAttemptAt: Date,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      attempts: row.attempts + 1,
      next_attempt_at: nextAttemptAt.toISOString(),
      locked_until: null,
      last_error: error.slice(0, 2000),
    })
    .where('id', '=', row.id)
    .execute();
}

export async function listOutbox(db: Kysely<Database>): Promise<OutboxRow[]> {
  return db.selectFrom('outbox').selectAll().orderBy('created_at').execute();
}
