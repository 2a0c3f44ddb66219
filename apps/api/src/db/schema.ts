import type { ColumnType } from 'kysely';

/**
 * Table types for Kysely. The same types serve SQLite and PostgreSQL: timestamps are ISO-8601 UTC strings
 * (they sort and compare as text), booleans are 0/1 integers, JSON is stored as text.
 */
export type LoginPolicy = 'open' | 'magic-link';
export type ContentType = 'case_study' | 'insight' | 'topic';
export type QuoteKind = 'warranty' | 'btr' | 'car';
export type ActivityAction = 'view' | 'submit' | 'search';
export type OutboxKind = 'mail' | 'forward';

/** A column the database fills in on insert (a default), so inserts may leave it out. */
export type Defaulted<T> = ColumnType<T, T | undefined, T>;

export interface ClientsTable {
  id: string;
  prefix: string;
  name: string;
  /** JSON `{ primary, accent, logo_url }`. */
  branding: string;
  login_policy: LoginPolicy;
  contact_phone: string | null;
  contact_email: string | null;
  created_at: string;
  /** Bumped by every content import: answers built from the content are cached under it. */
  content_version: Defaulted<number>;
}

export interface UsersTable {
  id: string;
  client_id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  /** 1 when the e-mail was proven by a magic link (one record per client and e-mail); 0 for open logins. */
  verified: number;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 (hex) of the cookie's session token: the token itself is never stored. */
  id: string;
  client_id: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
}

export interface LoginTokensTable {
  /** SHA-256 (hex) of the 32-byte token sent in the e-mail. */
  hash: string;
  client_id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface LoginAttemptsTable {
  id: string;
  key: string;
  at: string;
}

export interface ContentItemsTable {
  id: string;
  client_id: string;
  type: ContentType;
  slug: string;
  title: string;
  summary: string;
  /** Plain text of the body and the pro tip. */
  body_text: string;
  /** Title, summary and body text, folded for search (`searchFold`): what a search is matched against. */
  search_text: string;
  html: string;
  image_url: string | null;
  pro_tip: string | null;
  sort_order: number;
  /** JSON array of related slugs. */
  related: string;
  updated_at: string;
}

export interface VideosTable {
  client_id: string;
  title: string;
  src: string;
  poster: string | null;
  captions: string | null;
  description: string;
  updated_at: string;
}

/** A client's reference counter of one kind and year (its last number given). */
export interface SequencesTable {
  client_id: string;
  kind: string;
  year: number;
  value: number;
}

export interface QuotesTable {
  id: string;
  reference: string;
  kind: QuoteKind;
  client_id: string;
  user_id: string;
  input: string;
  quote: string;
  rate_table_version: string;
  contact_name: string;
  contact_phone: string;
  contact_email: string;
  created_at: string;
  /** The `Idempotency-Key` the submission came with (unique per user), or null. */
  idempotency_key: string | null;
}

export interface DueDiligenceTable {
  id: string;
  reference: string;
  client_id: string;
  user_id: string;
  project_name: string;
  project_address: string;
  city_postcode: string;
  project_description: string;
  build_cost: string;
  gdv: string;
  loan_amount: string;
  email: string;
  full_name: string;
  /** File name under DATA_DIR/uploads (generated, never the uploaded name). */
  attachment_path: string | null;
  /** The uploaded file's name, kept for display and forwarding only. */
  attachment_name: string | null;
  attachment_size: number | null;
  attachment_sha256: string | null;
  attachment_mime: string | null;
  created_at: string;
  /** The `Idempotency-Key` the request came with (unique per user), or null. */
  idempotency_key: string | null;
}

export interface ActivityTable {
  id: string;
  client_id: string;
  user_id: string;
  action: ActivityAction;
  item: string;
  at: string;
}

export interface OutboxTable {
  id: string;
  kind: OutboxKind;
  payload: string;
  attempts: number;
  next_attempt_at: string;
  /** Set while a worker holds the row; a crashed worker's lease runs out, or is given up sooner (`claimed_by`). */
  locked_until: string | null;
  /**
   * The process that claimed the row last (`host/pid/run`, process-mark.ts), so that a worker starting on the same
   * host gives up at once the claims of one that is gone (killed) rather than waiting for their lease; `null` for
   * rows never claimed, or claimed before the twenty-eighth session.
   */
  claimed_by: string | null;
  sent_at: string | null;
  last_error: string | null;
  created_at: string;
}

export interface Database {
  clients: ClientsTable;
  users: UsersTable;
  sessions: SessionsTable;
  login_tokens: LoginTokensTable;
  login_attempts: LoginAttemptsTable;
  content_items: ContentItemsTable;
  videos: VideosTable;
  sequences: SequencesTable;
  quotes: QuotesTable;
  due_diligence: DueDiligenceTable;
  activity: ActivityTable;
  outbox: OutboxTable;
}
