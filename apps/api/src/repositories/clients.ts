import type { Kysely, Selectable } from 'kysely';
import { newId } from '../crypto.js';
import type { ClientsTable, Database, LoginPolicy } from '../db/schema.js';

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

export async function listClients(db: Kysely<Database>): Promise<Client[]> {
  const rows = await db.selectFrom('clients').selectAll().orderBy('prefix').execute();
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

export async function createClient(
  db: Kysely<Database>,
  client: NewClient,
  now: Date,
): Promise<Client> {
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
  await db.insertInto('clients').values(row).execute();
  return toClient(row);
}

export interface ClientChanges {
  name?: string;
  loginPolicy?: LoginPolicy;
  branding?: Partial<Branding>;
  contactPhone?: string | null;
  contactEmail?: string | null;
}

export async function updateClient(
  db: Kysely<Database>,
  client: Client,
  changes: ClientChanges,
): Promise<Client> {
  const branding = { ...client.branding, ...changes.branding };
  await db
    .updateTable('clients')
    .set({
      name: changes.name ?? client.name,
      login_policy: changes.loginPolicy ?? client.loginPolicy,
      branding: JSON.stringify(branding),
      contact_phone:
        changes.contactPhone === undefined ? client.contactPhone : changes.contactPhone,
      contact_email:
        changes.contactEmail === undefined ? client.contactEmail : changes.contactEmail,
    })
    .where('id', '=', client.id)
    .execute();
  const updated = await findClientByPrefix(db, client.prefix);
  if (updated === undefined) throw new Error(`Client ${client.prefix} disappeared during update`);
  return updated;
}
