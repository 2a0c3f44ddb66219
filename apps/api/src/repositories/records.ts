import type { Kysely } from 'kysely';
import { orderedId } from '../db/ordered-id.js';
import { precompiled } from '../db/precompiled.js';
import type {
  ActivityAction,
  Database,
  DueDiligenceTable,
  QuoteKind,
  QuotesTable,
} from '../db/schema.js';

export interface NewQuote {
  reference: string;
  kind: QuoteKind;
  clientId: string;
  userId: string;
  input: unknown;
  quote: unknown;
  rateTableVersion: string;
  contactName: string;
  contactPhone: string;
  contactEmail: string;
  /** The request's `Idempotency-Key`, if it had one. */
  idempotencyKey?: string | undefined;
}

const insertQuoteRow = precompiled<keyof QuotesTable>(
  [
    'id',
    'reference',
    'kind',
    'client_id',
    'user_id',
    'input',
    'quote',
    'rate_table_version',
    'contact_name',
    'contact_phone',
    'contact_email',
    'created_at',
    'idempotency_key',
  ],
  (db, slot) =>
    db.insertInto('quotes').values({
      id: slot('id'),
      reference: slot('reference'),
      kind: slot('kind'),
      client_id: slot('client_id'),
      user_id: slot('user_id'),
      input: slot('input'),
      quote: slot('quote'),
      rate_table_version: slot('rate_table_version'),
      contact_name: slot('contact_name'),
      contact_phone: slot('contact_phone'),
      contact_email: slot('contact_email'),
      created_at: slot('created_at'),
      idempotency_key: slot('idempotency_key'),
    }),
);

export async function insertQuote(
  db: Kysely<Database>,
  quote: NewQuote,
  now: Date,
): Promise<QuotesTable> {
  const row: QuotesTable = {
    // Time-ordered: a batch of inserts touches the end of the primary-key index, not a page each.
    id: orderedId(now.getTime()),
    reference: quote.reference,
    kind: quote.kind,
    client_id: quote.clientId,
    user_id: quote.userId,
    input: JSON.stringify(quote.input),
    quote: JSON.stringify(quote.quote),
    rate_table_version: quote.rateTableVersion,
    contact_name: quote.contactName,
    contact_phone: quote.contactPhone,
    contact_email: quote.contactEmail,
    created_at: now.toISOString(),
    idempotency_key: quote.idempotencyKey ?? null,
  };
  await insertQuoteRow(db, row);
  return row;
}

/**
 * The quote a user of a client stored with an `Idempotency-Key`, if any (the unique index answers it). Scoped
 * to the client as well as the user, as every look-up of a record is: a reference means something only
 * within its client.
 */
export async function findQuoteByIdempotencyKey(
  db: Kysely<Database>,
  clientId: string,
  userId: string,
  key: string,
): Promise<Pick<QuotesTable, 'reference' | 'kind' | 'input' | 'quote'> | undefined> {
  return db
    .selectFrom('quotes')
    .select(['reference', 'kind', 'input', 'quote'])
    .where('client_id', '=', clientId)
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function listQuotes(db: Kysely<Database>, clientId: string): Promise<QuotesTable[]> {
  return db
    .selectFrom('quotes')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .orderBy('reference')
    .execute();
}

export type DueDiligenceRow = DueDiligenceTable;

export async function insertDueDiligence(
  db: Kysely<Database>,
  row: Omit<DueDiligenceRow, 'id'>,
): Promise<DueDiligenceRow> {
  const full = { id: orderedId(Date.parse(row.created_at)), ...row };
  await db.insertInto('due_diligence').values(full).execute();
  return full;
}

/** The due-diligence request a user of a client stored with an `Idempotency-Key`, if any (as for quotes). */
export async function findDueDiligenceByIdempotencyKey(
  db: Kysely<Database>,
  clientId: string,
  userId: string,
  key: string,
): Promise<DueDiligenceRow | undefined> {
  return db
    .selectFrom('due_diligence')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('user_id', '=', userId)
    .where('idempotency_key', '=', key)
    .executeTakeFirst();
}

export async function listDueDiligence(
  db: Kysely<Database>,
  clientId: string,
): Promise<DueDiligenceRow[]> {
  return db
    .selectFrom('due_diligence')
    .selectAll()
    .where('client_id', '=', clientId)
    .orderBy('created_at')
    .orderBy('reference')
    .execute();
}

export async function insertActivity(
  db: Kysely<Database>,
  entry: { clientId: string; userId: string; action: ActivityAction; item: string },
  now: Date,
): Promise<void> {
  await db
    .insertInto('activity')
    .values({
      // Time-ordered, as the other records' ids: each insert lands at the end of the key's index, where a random
      // id landed anywhere in it (twice the time per insert at 500,000 rows: the twenty-first session's scale probe).
      id: orderedId(now.getTime()),
      client_id: entry.clientId,
      user_id: entry.userId,
      action: entry.action,
      item: entry.item,
      at: now.toISOString(),
    })
    .execute();
}

export interface ActivityExportRow {
  at: string;
  action: string;
  item: string;
  email: string;
  first_name: string;
  last_name: string;
}

/**
 * A client's activity with who did it, oldest first; entries of the same moment in id order, so every export
 * lists them the same way on either database.
 */
export async function listActivity(
  db: Kysely<Database>,
  clientId: string,
): Promise<ActivityExportRow[]> {
  return db
    .selectFrom('activity')
    .innerJoin('users', 'users.id', 'activity.user_id')
    .select([
      'activity.at',
      'activity.action',
      'activity.item',
      'users.email',
      'users.first_name',
      'users.last_name',
    ])
    .where('activity.client_id', '=', clientId)
    .orderBy('activity.at')
    .orderBy('activity.id')
    .execute();
}
