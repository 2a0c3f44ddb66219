import { sql, type Kysely } from 'kysely';
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
  /**
   * A secret the text and `logLine` hold (a login link's token): the row keeps it only until the mail is sent, then
   * it is written as `[redacted]` there ({@link withoutSecret}), so that the database holds no usable link.
   */
  secret?: string;
}

export interface ForwardPayload {
  url: string;
  fields: Record<string, string>;
  file?: { path: string; filename: string; contentType: string };
}

export type OutboxJob =
  { kind: 'mail'; payload: MailPayload } | { kind: 'forward'; payload: ForwardPayload };

export type OutboxRow = OutboxTable;

/** Every kind of row the outbox holds. */
export const OUTBOX_KINDS: readonly OutboxRow['kind'][] = ['mail', 'forward'];

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

/**
 * The claim of {@link claimDue}, built once per database (it runs after every submission: building it each time
 * was about 4% of a warranty POST's main thread in a profile of a burst). PostgreSQL's locks the rows it claims
 * and skips those another instance holds.
 */
function claimQuery(forUpdate: boolean) {
  return precompiled<'lockedUntil' | 'claimant' | 'kind' | 'now' | 'limit', OutboxRow>(
    ['lockedUntil', 'claimant', 'kind', 'now', 'limit'],
    (db, slot) =>
      db
        .updateTable('outbox')
        .set({ locked_until: slot('lockedUntil'), claimed_by: slot('claimant') })
        .where('id', 'in', (eb) => {
          const due = eb
            .selectFrom('outbox')
            .select('id')
            .where('kind', '=', slot('kind'))
            .where('sent_at', 'is', null)
            .where('next_attempt_at', '<=', slot('now'))
            .where((inner) =>
              inner.or([
                inner('locked_until', 'is', null),
                inner('locked_until', '<', slot('now')),
              ]),
            )
            .orderBy('next_attempt_at')
            .limit(slot('limit'));
          return forUpdate ? due.forUpdate().skipLocked() : due;
        })
        .returningAll(),
  );
}
const claimSqlite = claimQuery(false);
const claimPostgres = claimQuery(true);

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

const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;
/** The first attempt count whose retry waits the longest (MAX_RETRY_MS): 8. */
const CAPPED_AT = 1 + Math.ceil(Math.log2(MAX_RETRY_MS / FIRST_RETRY_MS));

/** Delay before retry n (1-based): 30 s, 1 min, 2 min … capped at one hour. Rows are never dropped. */
export function retryDelayMs(attempts: number): number {
  return Math.min(FIRST_RETRY_MS * 2 ** Math.max(0, attempts - 1), MAX_RETRY_MS);
}

/**
 * Claims up to `limit` due rows of one kind for this worker for `leaseMs`, in one statement (an UPDATE of the rows
 * a subquery picks, RETURNING them), oldest due first. On PostgreSQL the subquery locks its rows `FOR UPDATE SKIP
 * LOCKED`, so several instances never claim the same row; SQLite serialises writers. Run it in a transaction (the
 * worker uses `Db.write`, which on SQLite shares the commit with others).
 *
 * Due means `next_attempt_at` has passed: the subquery is one range of the index (kind, sent_at, next_attempt_at),
 * so rows waiting for a retry are never read. (The seventeenth session's rule for a wall clock set back was
 * written into this statement as an OR over every attempt count, which no index serves: with the mail server or
 * the form service down, every claim read every row waiting of its kind, 22 ms at 50,000, inside the write lock,
 * after every submission; found by the twenty-first session's scale probe. That rule is now
 * {@link repairClockStep}, which the worker runs when it starts and whenever it sees its clock go back.)
 */
export async function claimDue(
  db: Kysely<Database>,
  dialect: Dialect,
  now: Date,
  leaseMs: number,
  limit: number,
  /** Only rows of this kind (the worker delivers each kind in a lane of its own; the index leads with it). */
  kind: OutboxRow['kind'],
  /** Who claims them (`CLAIMANT` of process-mark.ts), kept in `claimed_by` for `releaseGoneClaims`. */
  claimant: string | null = null,
): Promise<OutboxRow[]> {
  const { rows } = await (dialect === 'postgres' ? claimPostgres : claimSqlite)(db, {
    lockedUntil: new Date(now.getTime() + leaseMs).toISOString(),
    claimant,
    kind,
    now: now.toISOString(),
    limit,
  });
  // RETURNING gives no order: deliver the oldest first (ties, queued in the same instant, by creation).
  return rows
    .map((row) => ({ ...row, attempts: attemptCount(row.attempts) }))
    .sort(
      (a, b) =>
        compare(a.next_attempt_at, b.next_attempt_at) || compare(a.created_at, b.created_at),
    );
}

/**
 * A row's attempts as a count: SQLite keeps whatever a hand edit wrote (`'abc'`), which made `attempts + 1` a
 * string and the retry time an invalid date, so the batch's marks failed with it and the mails delivered beside it
 * were never marked sent, and went out again at every lease (found by the twenty-third session's staff-tool
 * probe). Anything but a whole number of zero or more counts as none; the next mark writes a number back.
 */
function attemptCount(value: unknown): number {
  const count = typeof value === 'number' ? value : Number(value);
  return Number.isSafeInteger(count) && count >= 0 ? count : 0;
}

/**
 * Undoes what a wall clock set back did to the unsent rows (found by the seventeenth session's fault probe: a step
 * back of an hour held every queued mail, and any claimed row's lease, for that hour). A time further ahead of
 * `now` than the rule that set it allows can only come from before such a step, so it counts as passed: a row never
 * tried (due from the moment it was queued) is due now, a retry further ahead than its own delay is due now, and a
 * lease longer than `leaseMs` from now is given up. Returns how many rows it changed. It reads every row waiting, so
 * the worker runs it only when it starts (a step while the server was stopped, a restored VM) and when it sees its
 * own clock go back.
 */
export async function repairClockStep(
  db: Kysely<Database>,
  now: Date,
  leaseMs: number,
): Promise<number> {
  const nowIso = now.toISOString();
  const after = (ms: number) => new Date(now.getTime() + ms).toISOString();
  let repaired = 0;
  // Kind by kind, through the index (kind, sent_at, next_attempt_at): the rows waiting, never the sent ones.
  for (const kind of OUTBOX_KINDS) {
    const due = await db
      .updateTable('outbox')
      .set({ next_attempt_at: nowIso })
      .where('kind', '=', kind)
      .where('sent_at', 'is', null)
      .where('next_attempt_at', '>', nowIso)
      .where((inner) =>
        inner.or([
          inner('attempts', '=', 0),
          ...Array.from({ length: CAPPED_AT }, (_, i) =>
            inner.and([
              inner('attempts', i + 1 === CAPPED_AT ? '>=' : '=', i + 1),
              inner('next_attempt_at', '>', after(retryDelayMs(i + 1))),
            ]),
          ),
        ]),
      )
      .executeTakeFirst();
    const released = await db
      .updateTable('outbox')
      .set({ locked_until: null })
      .where('kind', '=', kind)
      .where('sent_at', 'is', null)
      .where('locked_until', '>', after(leaseMs))
      .executeTakeFirst();
    repaired += Number(due.numUpdatedRows) + Number(released.numUpdatedRows);
  }
  return repaired;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Gives up the claims of workers known to be gone (`gone`: a process of this host that has ended, or an earlier run
 * of this pid), whose leases have not run out: their rows are due again at once, with no attempt counted, as rows
 * given back at a stop are. Found by the twenty-eighth session's probe: after a SIGKILL under magic-link logins, the
 * login links the killed worker had claimed waited up to its five-minute lease, though the server was back in
 * seconds. A claim of a live process (another instance, this host's or another's) is left to its lease: its
 * delivery may be under way. Returns how many rows it gave back. Kind by kind, through the index (kind, sent_at).
 */
export async function releaseGoneClaims(
  db: Kysely<Database>,
  now: Date,
  gone: (claimant: string) => boolean,
): Promise<number> {
  const nowIso = now.toISOString();
  let released = 0;
  for (const kind of OUTBOX_KINDS) {
    const claimants = await db
      .selectFrom('outbox')
      .select('claimed_by')
      .distinct()
      .where('kind', '=', kind)
      .where('sent_at', 'is', null)
      .where('locked_until', '>', nowIso)
      .where('claimed_by', 'is not', null)
      .execute();
    for (const { claimed_by: claimant } of claimants) {
      if (claimant === null || !gone(claimant)) continue;
      const result = await db
        .updateTable('outbox')
        .set({ locked_until: null, claimed_by: null })
        .where('kind', '=', kind)
        .where('sent_at', 'is', null)
        .where('claimed_by', '=', claimant)
        .where('locked_until', '>', nowIso)
        .executeTakeFirst();
      released += Number(result.numUpdatedRows);
    }
  }
  return released;
}

/**
 * Marks delivered rows sent, in one statement (one commit for a whole claimed batch). `sentPayloads` are the payloads
 * some of them keep once sent ({@link withoutSecret}: a login mail's without its token), written in the same commit.
 */
export async function markSent(
  db: Kysely<Database>,
  ids: readonly string[],
  now: Date,
  sentPayloads: readonly { id: string; payload: string }[] = [],
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbox')
    .set({ sent_at: now.toISOString(), locked_until: null, last_error: null })
    .where('id', 'in', ids)
    .execute();
  for (const { id, payload } of sentPayloads) {
    if (!ids.includes(id)) continue;
    await db.updateTable('outbox').set({ payload }).where('id', '=', id).execute();
  }
}

/**
 * The payload a sent mail keeps: without its `secret`, which its text and `logLine` then show as `[redacted]`; or
 * `undefined` when it holds none (it keeps the payload as it is). A login link's token was kept in the outbox row
 * for good, in clear, beside the login tokens stored only as hashes: anyone who could read the database (a replica,
 * a copy) could log in with a link its owner had not used yet (found by the thirtieth session's probe).
 */
export function withoutSecret(payload: string): string | undefined {
  // Read again only when it may hold one: every delivered mail passes here, and only a login mail has a secret.
  if (!payload.includes('"secret"')) return undefined;
  const mail = readMail(payload);
  if (mail === undefined || typeof mail.secret !== 'string' || mail.secret === '') return undefined;
  const { secret, ...kept } = mail;
  const hide = (text: string): string => text.split(secret).join('[redacted]');
  return JSON.stringify({
    ...kept,
    text: hide(kept.text),
    ...(kept.logLine === undefined ? {} : { logLine: hide(kept.logLine) }),
  });
}

/**
 * Gives claimed rows back at once, with no attempt counted: their delivery was not begun, or was cut short, when
 * the worker stopped. The next run (this server's next start, or another instance) takes them without waiting for
 * their lease to run out.
 */
export async function releaseClaims(db: Kysely<Database>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('outbox')
    .set({ locked_until: null })
    .where('id', 'in', ids)
    .where('sent_at', 'is', null)
    .execute();
}

/**
 * Records a failed attempt: the next one waits for `nextAttemptAt`, unless the row's payload is no longer the one
 * attempted (staff redirected the forward meanwhile: `pnpm admin outbox redirect` made it due now, and a failure
 * at the old address must not put that off by the back-off; found by the twenty-first session's staff-tool probe).
 */
export async function markFailed(
  db: Kysely<Database>,
  row: OutboxRow,
  error: string,
  nextAttemptAt: Date,
  now: Date,
): Promise<void> {
  await db
    .updateTable('outbox')
    .set({
      attempts: row.attempts + 1,
      next_attempt_at: sql<string>`case when ${sql.ref('payload')} = ${row.payload} then ${nextAttemptAt.toISOString()} else ${now.toISOString()} end`,
      locked_until: null,
      last_error: error.slice(0, 2000),
    })
    .where('id', '=', row.id)
    .execute();
}

/** The payload a row holds now, or undefined when it is gone. */
export async function currentPayload(
  db: Kysely<Database>,
  id: string,
): Promise<string | undefined> {
  const found = await db
    .selectFrom('outbox')
    .select('payload')
    .where('id', '=', id)
    .executeTakeFirst();
  return found?.payload;
}

/**
 * The rows not sent yet of these kinds (all, unless said), oldest due first: e-mails, then forwards (one indexed
 * read a kind), at most `limit` in all.
 */
export async function listUnsent(
  db: Kysely<Database>,
  kinds: readonly OutboxRow['kind'][] = OUTBOX_KINDS,
  limit = Number.MAX_SAFE_INTEGER,
): Promise<OutboxRow[]> {
  const rows: OutboxRow[] = [];
  for (const kind of kinds) {
    if (rows.length >= limit) break;
    rows.push(
      ...(await db
        .selectFrom('outbox')
        .selectAll()
        .where('kind', '=', kind)
        .where('sent_at', 'is', null)
        .orderBy('next_attempt_at')
        .orderBy('created_at')
        .limit(limit - rows.length)
        .execute()),
    );
  }
  return rows;
}

/** How many rows of each kind are not sent yet (one count of an index range a kind). */
export async function countUnsent(
  db: Kysely<Database>,
): Promise<Record<OutboxRow['kind'], number>> {
  const counts = { mail: 0, forward: 0 };
  for (const kind of OUTBOX_KINDS) {
    const found = await db
      .selectFrom('outbox')
      .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
      .where('kind', '=', kind)
      .where('sent_at', 'is', null)
      .executeTakeFirstOrThrow();
    counts[kind] = Number(found.n);
  }
  return counts;
}

export interface Redirected {
  /** Forwards now addressed to the new URL. */
  changed: number;
  /**
   * Of those, how many a worker had claimed at that moment (its lease not run out): one already on its way to the
   * old address finishes that attempt there; the others go to the new one when their turn comes.
   */
  inFlight: number;
  /** When the last of those claims runs out (ISO-8601), if any. */
  claimedUntil: string | null;
  /** Forwards whose stored content could not be read (edited by hand): left as they are. */
  unreadable: number;
}

/** A URL with its password, if any, written as `***` (as the staff tool prints it). */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password !== '') parsed.password = '***';
    return parsed.href;
  } catch {
    return url;
  }
}

/**
 * Addresses the forwards not sent yet to `to` (all of them, or only those queued for `from`), and makes them due at
 * once: after FORM_SERVICE_URL is corrected, the rows queued under the old address would otherwise keep going
 * there. `from` is compared as a parsed URL (case of the host, default port, trailing slash of the root); one whose
 * password is `***`, as the staff tool prints it, matches the address with any password. Their attempts and last
 * error stay as a record of what happened before. One transaction; a forward a worker has claimed keeps its lease
 * (the worker reads the address again before each attempt, so only one already on its way goes to the old one).
 */
export async function redirectForwards(
  db: Kysely<Database>,
  to: string,
  from: string | null,
  now: Date,
): Promise<Redirected> {
  const target = new URL(to).href;
  const source = from === null ? null : new URL(from);
  const matches = (url: string): boolean => {
    if (source === null) return true;
    try {
      const stored = new URL(url);
      if (stored.href === source.href) return true;
      return source.password === '***' && maskedUrl(stored.href) === source.href;
    } catch {
      return url === source.href;
    }
  };
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('outbox')
      .select(['id', 'payload', 'locked_until'])
      .where('kind', '=', 'forward')
      .where('sent_at', 'is', null)
      .execute();
    const result: Redirected = { changed: 0, inFlight: 0, claimedUntil: null, unreadable: 0 };
    for (const row of rows) {
      const payload = readForward(row.payload);
      if (payload === undefined) {
        result.unreadable += 1;
        continue;
      }
      if (!matches(payload.url)) continue;
      await trx
        .updateTable('outbox')
        .set({
          payload: JSON.stringify({ ...payload, url: target }),
          next_attempt_at: now.toISOString(),
        })
        .where('id', '=', row.id)
        .where('sent_at', 'is', null)
        .execute();
      result.changed += 1;
      if (row.locked_until !== null && row.locked_until > now.toISOString()) {
        result.inFlight += 1;
        if (result.claimedUntil === null || row.locked_until > result.claimedUntil) {
          result.claimedUntil = row.locked_until;
        }
      }
    }
    return result;
  });
}

/** A stored forward's payload, or undefined when it is not one (a row edited by hand). */
export function readForward(payload: string): ForwardPayload | undefined {
  const parsed = readObject(payload);
  if (parsed === undefined || typeof parsed.url !== 'string' || !isStrings(parsed.fields)) {
    return undefined;
  }
  const file = parsed.file;
  if (
    file !== undefined &&
    !(isStrings(file) && ['path', 'filename', 'contentType'].every((key) => key in file))
  ) {
    return undefined;
  }
  return parsed as unknown as ForwardPayload;
}

/** A stored e-mail's payload, or undefined when it is not one (a row edited by hand). */
export function readMail(payload: string): MailPayload | undefined {
  const parsed = readObject(payload);
  if (
    parsed === undefined ||
    !['to', 'subject', 'text'].every((key) => typeof parsed[key] === 'string') ||
    !(parsed.logLine === undefined || typeof parsed.logLine === 'string') ||
    !(parsed.secret === undefined || typeof parsed.secret === 'string') ||
    !(
      parsed.attachments === undefined ||
      (Array.isArray(parsed.attachments) &&
        parsed.attachments.every(
          (a) => isStrings(a) && ['path', 'filename', 'contentType'].every((key) => key in a),
        ))
    )
  ) {
    return undefined;
  }
  return parsed as unknown as MailPayload;
}

function readObject(payload: string): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(payload);
    return isObject(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** An object whose every value is a string. */
function isStrings(value: unknown): value is Record<string, string> {
  return isObject(value) && Object.values(value).every((v) => typeof v === 'string');
}

export async function listOutbox(db: Kysely<Database>): Promise<OutboxRow[]> {
  return db.selectFrom('outbox').selectAll().orderBy('created_at').execute();
}
