import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type LightMyRequestResponse,
} from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import app, { serverOptions, type AppOptions } from '../src/app.js';
import { loadConfig, type Config } from '../src/config.js';
import { findClientByPrefix, type Client } from '../src/repositories/clients.js';

const here = path.dirname(fileURLToPath(import.meta.url));
export const FIXTURES = path.join(here, 'fixtures');
export const FIXTURE_CONTENT = path.join(FIXTURES, 'content');
export const FIXTURE_PORTAL = path.join(FIXTURES, 'portal-dist');

export interface DatabaseTarget {
  name: 'sqlite' | 'postgres';
  url: string | null;
}

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (CI sets it via scripts/ci/postgres.sh). */
export const databases: DatabaseTarget[] = [
  { name: 'sqlite', url: null },
  ...(process.env.TEST_DATABASE_URL
    ? [{ name: 'postgres' as const, url: process.env.TEST_DATABASE_URL }]
    : []),
];

/** A logger that drops everything, for services built outside an app. */
export const silentLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  debug: () => undefined,
} as unknown as FastifyBaseLogger;

/** A clock tests move by hand. */
export class TestClock {
  constructor(public current = new Date('2026-03-02T09:00:00.000Z')) {}
  readonly now = (): Date => new Date(this.current);
  advance(ms: number): void {
    this.current = new Date(this.current.getTime() + ms);
  }
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  clock: TestClock;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * A fresh PostgreSQL schema for one app. It is dropped with the others of this run once every test file
 * has finished (test/global-setup.ts), never while other files may be migrating.
 */
export async function createPgSchema(url: string): Promise<{ schema: string }> {
  const schema = `t_${inject('pgRunId')}_${Math.random().toString(36).slice(2, 10)}`;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(`create schema ${schema}`);
  await client.end();
  return { schema };
}

/** Starts the test app listening on a free port of 127.0.0.1 (for tests that need a real connection). */
export async function listenLocally(app: FastifyInstance): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  return typeof address === 'object' && address !== null ? address.port : 0;
}

/** Builds the app on an empty data folder (and a fresh PG schema), seeded from the fixture content. */
export async function buildTestApp(
  target: DatabaseTarget,
  env: Record<string, string> = {},
  /** Fastify options over the app's own (a test of timeouts shortens them). */
  server: Partial<FastifyServerOptions> = {},
  /** The app's options over the test's (a test of the shutdown shortens its cut-off). */
  appOptions: Partial<AppOptions> = {},
): Promise<TestApp> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-api-test-'));
  const pgSchema = target.url === null ? undefined : await createPgSchema(target.url);
  const config = loadConfig({
    DATA_DIR: dataDir,
    CONTENT_DIR: FIXTURE_CONTENT,
    PORTAL_DIST: FIXTURE_PORTAL,
    LOG_LEVEL: 'silent',
    SESSION_SECRET: 'test-secret-test-secret-test-secret-42',
    // Tests share an address and e-mail; the rate-limit tests set the real limits.
    LOGIN_LIMIT_PER_EMAIL: '1000',
    LOGIN_LIMIT_PER_ADDRESS: '1000',
    DUE_DILIGENCE_LIMIT_PER_HOUR: '1000',
    DUE_DILIGENCE_LIMIT_PER_ADDRESS: '1000',
    QUOTE_LIMIT_PER_HOUR: '100000',
    QUOTE_LIMIT_PER_ADDRESS: '100000',
    // Many test apps share one PostgreSQL server (max_connections 100 by default).
    DATABASE_POOL_SIZE: '3',
    ...(target.url === null
      ? {}
      : { DATABASE_URL: target.url, DATABASE_SCHEMA: pgSchema?.schema ?? '' }),
    ...env,
  });
  const clock = new TestClock();
  const instance = Fastify({ ...serverOptions(config), logger: false, ...server });
  await instance.register(app, { config, clock: clock.now, ...appOptions });
  await instance.ready();
  return {
    app: instance,
    config,
    clock,
    dataDir,
    async close() {
      await instance.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The `name=value` pair of the session cookie set by a response, for a Cookie header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'sid' || c.name === '__Host-sid');
  if (cookie === undefined || cookie.value === '') throw new Error('No session cookie was set');
  return `${cookie.name}=${cookie.value}`;
}

export const PERSON = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: 'ada@example.com',
  phone: '020 7946 0123',
};

/** Logs in to an open client and returns the Cookie header value. */
/** The client with this prefix as stored now; a test that expects it fails loudly when it is not there. */
/** How many rows a table holds. */
export async function countRows(
  app: FastifyInstance,
  table: 'quotes' | 'due_diligence' | 'outbox',
): Promise<number> {
  const { n } = await app.db.kysely
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(n);
}

export async function existingClient(app: FastifyInstance, prefix: string): Promise<Client> {
  const found = await findClientByPrefix(app.db.kysely, prefix);
  if (found === undefined) throw new Error(`no client ${prefix}`);
  return found;
}

export async function loginOpen(
  app: FastifyInstance,
  prefix = 'demo',
  person: Partial<typeof PERSON> = {},
): Promise<string> {
  const response = await app.inject({
    method: 'POST',
    url: `/api/${prefix}/login`,
    payload: { ...PERSON, ...person },
  });
  if (response.statusCode !== 200) throw new Error(`Login failed: ${response.body}`);
  return sessionCookie(response);
}

/** Every .eml file written to the outbox folder, oldest first. */
export async function outboxMails(dataDir: string): Promise<string[]> {
  const dir = path.join(dataDir, 'outbox');
  let files: string[];
  try {
    files = (await readdir(dir)).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(files.map((f) => readFile(path.join(dir, f), 'utf8')));
}

/** A mail's text with quoted-printable soft breaks and escapes decoded. */
export function decodeMail(mail: string): string {
  const latin1 = mail
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(latin1, 'latin1').toString('utf8');
}

/** The login token in a login mail. */
export function loginLinkToken(mail: string): string {
  const match = /\/login\/link\?token=([A-Za-z0-9_-]+)/.exec(decodeMail(mail));
  if (match?.[1] === undefined) throw new Error('No login link in the mail');
  return match[1];
}

/** Asks a magic-link client for a login link (the login POST) and gives its token, read from the mail written. */
export async function askLoginLinkToken(
  t: TestApp,
  prefix = 'northbank',
  person: Partial<typeof PERSON> = {},
): Promise<string> {
  const before = (await outboxMails(t.dataDir)).length;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/${prefix}/login`,
    payload: { ...PERSON, ...person },
  });
  if (response.statusCode !== 200) throw new Error(`Login failed: ${response.body}`);
  await t.app.background.drain();
  const mails = await outboxMails(t.dataDir);
  const mail = mails[before];
  if (mail === undefined) throw new Error('No login mail was written');
  return loginLinkToken(mail);
}

/** Logs in to a magic-link client the whole way: login POST, mail from the outbox, link POST. */
export async function loginMagic(
  t: TestApp,
  prefix = 'northbank',
  person: Partial<typeof PERSON> = {},
): Promise<string> {
  const token = await askLoginLinkToken(t, prefix, person);
  const link = await t.app.inject({
    method: 'POST',
    url: `/api/${prefix}/login/link`,
    payload: `token=${token}`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  if (link.statusCode !== 303) throw new Error(`Link login failed: ${link.statusCode}`);
  return sessionCookie(link);
}

export interface FilePart {
  field?: string;
  filename: string;
  contentType?: string;
  content: Buffer;
}

/** A multipart/form-data body (fields as given, names and file names sent raw). */
export function multipart(fields: [string, string][] | Record<string, string>, file?: FilePart) {
  const boundary = '----firmtest7MA4YWxkTrZu0gW';
  const parts: Buffer[] = [];
  const list = Array.isArray(fields) ? fields : Object.entries(fields);
  for (const [name, value] of list) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
      ),
    );
  }
  if (file !== undefined) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'FileUpload'}"; ` +
          `filename="${file.filename}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

/** A small valid PDF-looking file of `size` bytes. */
export function pdf(size: number): Buffer {
  const content = Buffer.alloc(size, 0x20);
  content.write('%PDF-1.7\n');
  return content;
}

/**
 * Locks a table of a PostgreSQL schema from another connection (ACCESS EXCLUSIVE, in a transaction), as a database
 * stuck on a lock looks: every statement that needs the table waits. Gives the release (rollback, disconnect).
 */
export async function lockPgTable(
  databaseUrl: string,
  schema: string,
  table: string,
): Promise<() => Promise<void>> {
  const other = new pg.Client({ connectionString: databaseUrl });
  await other.connect();
  await other.query('begin');
  await other.query(`lock table ${schema}.${table} in access exclusive mode`);
  return async () => {
    await other.query('rollback');
    await other.end();
  };
}
