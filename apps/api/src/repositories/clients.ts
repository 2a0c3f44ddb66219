import type { Kysely, Selectable, Updateable } from 'kysely';
import { newId } from '../crypto.js';
import { NOT_SHOWN_IN_A_LINE, VISIBLE_CHARACTER } from '../text-controls.js';
import { byCodePoint } from '../db/code-point-order.js';
import type { Dialect } from '../db/connect.js';
import type { ClientsTable, Database, LoginPolicy } from '../db/schema.js';

/** Client details that cannot be stored: a prefix already taken, a name or phone that is not one line of text. */
export class ClientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientError';
  }
}

/** The longest client name taken (shown in the portal's header, the login page and every mail). */
export const MAX_CLIENT_NAME = 200;
/** The longest contact phone taken (free text shown in the portal's footer). */
export const MAX_CONTACT_PHONE = 100;

/** Control characters (C0, DEL, C1) and the line and paragraph separators: none belongs in a one-line field. */
/** What does not show: whitespace and the invisible format characters (zero-width space and joiners, BOM…). */
const SHOWS_SOMETHING = new RegExp(VISIBLE_CHARACTER, 'u');

/**
 * Checks a client name or contact phone: one line of visible text, at most `max` characters. Returns a
 * message or `undefined` when fine.
 */
export function lineProblem(label: string, value: string, max: number): string | undefined {
  if (value.length > max)
    return `The ${label} is ${value.length} characters long; at most ${max} are taken.`;
  // A name holding U+202E would show reversed, with what follows it, in e-mails and on the portal.
  if (NOT_SHOWN_IN_A_LINE.test(value)) {
    return `The ${label} must be one line of text, without line breaks, tabs, control characters or text-direction marks.`;
  }
  // Blank as the API's fields are (`VISIBLE_CHARACTER`): a name of the Braille blank, a Hangul filler or a lone
  // combining mark was taken (found by the twenty-third session's staff-tool probe).
  if (!SHOWS_SOMETHING.test(value)) return `The ${label} must not be blank.`;
  return undefined;
}

/** Throws a {@link ClientError} when a name or contact phone about to be stored is not one line of text. */
function checkDetails(details: { name?: string; contactPhone?: string | null }): void {
  const problem =
    (details.name === undefined
      ? undefined
      : lineProblem('client name', details.name, MAX_CLIENT_NAME)) ??
    (details.contactPhone === undefined || details.contactPhone === null
      ? undefined
      : lineProblem('contact phone', details.contactPhone, MAX_CONTACT_PHONE));
  if (problem !== undefined) throw new ClientError(problem);
}

export interface Branding {
  primary: string;
  accent: string;
  logo_url: string | null;
}

export interface Client {
  id: string;
  prefix: string;
  name: string;
  loginPolicy: LoginPolicy;
  branding: Branding;
  contactPhone: string | null;
  contactEmail: string | null;
  /** Changes whenever the client's content is imported (cache key for answers built from it). */
  contentVersion: number;
}

export const DEFAULT_BRANDING: Branding = { primary: '#1f3a5f', accent: '#c8963e', logo_url: null };

/** The columns a {@link Client} is made of. */
export type ClientRow = Omit<Selectable<ClientsTable>, 'created_at'>;

export function toClient(row: ClientRow): Client {
  const branding = JSON.parse(row.branding) as Partial<Branding>;
  return {
    id: row.id,
    prefix: row.prefix,
    name: row.name,
    loginPolicy: row.login_policy,
    branding: { ...DEFAULT_BRANDING, ...branding },
    contactPhone: row.contact_phone,
    contactEmail: row.contact_email,
    contentVersion: Number(row.content_version),
  };
}

export async function findClientByPrefix(
  db: Kysely<Database>,
  prefix: string,
): Promise<Client | undefined> {
  const row = await db
    .selectFrom('clients')
    .selectAll()
    .where('prefix', '=', prefix)
    .executeTakeFirst();
  return row === undefined ? undefined : toClient(row);
}

/**
 * The client's login policy as stored now, read inside the transaction `trx` that is about to start a session
 * on the strength of it, so that a staff command changing the policy cannot slip in between the read and the
 * commit. On PostgreSQL the row is locked FOR SHARE (the staff update waits, and its cleanup then sees this
 * transaction's rows); on SQLite call it only after the transaction's first write, which took the one write
 * lock (no other process commits until this one does, so the read is the latest). `undefined` if the client
 * is gone.
 */
export async function lockedLoginPolicy(
  trx: Kysely<Database>,
  dialect: Dialect,
  clientId: string,
): Promise<LoginPolicy | undefined> {
  const query = trx.selectFrom('clients').select('login_policy').where('id', '=', clientId);
  const row = await (dialect === 'postgres' ? query.forShare() : query).executeTakeFirst();
  return row?.login_policy;
}

export async function listClients(db: Kysely<Database>): Promise<Client[]> {
  const rows = await db
    .selectFrom('clients')
    .selectAll()
    .orderBy(byCodePoint(db, 'prefix'))
    .execute();
  return rows.map(toClient);
}

export async function countClients(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('clients')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface NewClient {
  prefix: string;
  name: string;
  loginPolicy: LoginPolicy;
  branding?: Partial<Branding>;
  contactPhone?: string | null;
  contactEmail?: string | null;
}

/**
 * Adds a client. Throws a {@link ClientError} when the prefix is taken (also by a client added at the same
 * moment by another process) or the name or phone is not one line of text; nothing is stored then.
 */
export async function createClient(
  db: Kysely<Database>,
  client: NewClient,
  now: Date,
): Promise<Client> {
  checkDetails(client);
  const row: Selectable<ClientsTable> = {
    id: newId(),
    prefix: client.prefix,
    name: client.name,
    login_policy: client.loginPolicy,
    branding: JSON.stringify({ ...DEFAULT_BRANDING, ...client.branding }),
    contact_phone: client.contactPhone ?? null,
    contact_email: client.contactEmail ?? null,
    created_at: now.toISOString(),
    content_version: 0,
  };
  const result = await db
    .insertInto('clients')
    .values(row)
    .onConflict((oc) => oc.column('prefix').doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) {
    throw new ClientError(`A client with the prefix "${client.prefix}" already exists.`);
  }
  return toClient(row);
}

export interface ClientChanges {
  name?: string;
  loginPolicy?: LoginPolicy;
  branding?: Partial<Branding>;
  contactPhone?: string | null;
  contactEmail?: string | null;
}

/** How often an update is tried again when another process changed the client's branding meanwhile. */
const UPDATE_ATTEMPTS = 5;

/**
 * Applies `changes` to the client as it is stored now: only the fields named change, and the branding colours
 * are merged into the stored branding (the logo a content import set meanwhile is kept), so two staff commands
 * or an import running at the same time never undo each other's changes. Switching the client to magic-link
 * ends the sessions of its open logins (their e-mail was never proven), in the same transaction. Throws a
 * {@link ClientError} when a name or phone is not one line of text.
 */
export async function updateClient(
  db: Kysely<Database>,
  client: Client,
  changes: ClientChanges,
): Promise<Client> {
  checkDetails(changes);
  const set: Updateable<ClientsTable> = {};
  if (changes.name !== undefined) set.name = changes.name;
  if (changes.loginPolicy !== undefined) set.login_policy = changes.loginPolicy;
  if (changes.contactPhone !== undefined) set.contact_phone = changes.contactPhone;
  if (changes.contactEmail !== undefined) set.contact_email = changes.contactEmail;
  const brandingChanges = Object.entries(changes.branding ?? {}).filter(([, v]) => v !== undefined);
  for (let attempt = 1; ; attempt += 1) {
    const stored = await db
      .selectFrom('clients')
      .select('branding')
      .where('id', '=', client.id)
      .executeTakeFirst();
    if (stored === undefined) throw new Error(`Client ${client.prefix} disappeared during update`);
    const done = await db.transaction().execute(async (trx) => {
      if (Object.keys(set).length > 0 || brandingChanges.length > 0) {
        let update = trx.updateTable('clients').set(set).where('id', '=', client.id);
        if (brandingChanges.length > 0) {
          // Compare and set: when another process changed the branding since it was read, nothing is written
          // and the update starts again from the new branding.
          const merged = {
            ...DEFAULT_BRANDING,
            ...(JSON.parse(stored.branding) as Partial<Branding>),
            ...Object.fromEntries(brandingChanges),
          };
          update = update
            .set({ branding: JSON.stringify(merged) })
            .where('branding', '=', stored.branding);
        }
        const result = await update.executeTakeFirst();
        if (Number(result.numUpdatedRows) === 0) return false;
      }
      if (changes.loginPolicy === 'magic-link') {
        // The client's sessions (index sessions_client), each user looked up by its key: the whole sessions and
        // users tables were read (found by the twenty-first session's scale probe).
        await trx
          .deleteFrom('sessions')
          .where('sessions.client_id', '=', client.id)
          .where(({ exists, selectFrom }) =>
            exists(
              selectFrom('users')
                .select('users.id')
                .whereRef('users.id', '=', 'sessions.user_id')
                .where('users.verified', '=', 0),
            ),
          )
          .execute();
      }
      return true;
    });
    if (done) break;
    if (attempt >= UPDATE_ATTEMPTS) {
      throw new ClientError(
        `The client ${client.prefix} kept changing while it was being updated; try again.`,
      );
    }
  }
  const updated = await findClientByPrefix(db, client.prefix);
  if (updated === undefined) throw new Error(`Client ${client.prefix} disappeared during update`);
  return updated;
}
