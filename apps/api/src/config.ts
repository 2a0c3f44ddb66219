import { randomBytes } from 'node:crypto';
import {
  closeSync,
  existsSync,
  fsyncSync,
  linkSync,
  openSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllowedHosts } from './allowed-hosts.js';
import { makeDataDir } from './data-dir.js';
import { CONTACT_EMAIL, CONTACT_EMAIL_RULE, unshownNote } from './email-address.js';
import { processGone } from './services/process-mark.js';
import { shownText } from './services/shown-text.js';
import { MAX_CONTACT_PHONE, lineProblem } from './repositories/clients.js';
import { StorageError, WRITABLE_DATA_DIR } from './storage-error.js';

/** The server's configuration, read once from the environment and checked before anything starts. */
export interface Config {
  port: number;
  host: string;
  /** Absolute path of the data folder (SQLite file, uploads, media, outbox .eml files, session secret). */
  dataDir: string;
  /** `null` → SQLite file `dataDir/portal.sqlite`; otherwise a `postgres://` URL. */
  databaseUrl: string | null;
  /** PostgreSQL schema to use (search_path); `null` → the server's default. */
  databaseSchema: string | null;
  /** Most PostgreSQL connections one instance opens. */
  databasePoolSize: number;
  /** How long a request waits for PostgreSQL (a connection, then each statement) before it is answered 503. */
  databaseTimeoutMs: number;
  /** Origin + optional path prefix the portal is reached at; links in e-mails are built from it. */
  publicUrl: URL;
  /** Host names answered besides PUBLIC_URL's, IP addresses and localhost (`null`: any); see `allowed-hosts.ts`. */
  allowedHosts: readonly string[] | null;
  /** `null` → generated into `dataDir/session-secret` on first start (see {@link resolveSessionSecret}). */
  sessionSecret: string | null;
  /** `null` → mails are written as .eml files into `dataDir/outbox`. */
  smtpUrl: string | null;
  mailFrom: string;
  teamEmail: string;
  formServiceUrl: string | null;
  providerPhone: string;
  providerEmail: string;
  footerBlurb: string;
  regulatoryText: string;
  contentDir: string;
  portalDist: string;
  defaultClient: string;
  trustProxy: boolean;
  logLevel: string;
  /** Login attempts allowed per e-mail address and per client address within {@link loginWindowMinutes}. */
  loginLimitPerEmail: number;
  loginLimitPerAddress: number;
  loginWindowMinutes: number;
  outboxPollMs: number;
  /** Due diligence requests one user may have stored within an hour (per instance). */
  dueDiligencePerHour: number;
  /** Due diligence requests stored from one client address (IPv6: a /64) within an hour (per instance). */
  dueDiligencePerAddressPerHour: number;
  /** Calculator quotes one user may have stored within an hour, the three calculators together (per instance). */
  quotesPerHour: number;
  /** Calculator quotes stored from one client address (IPv6: a /64) within an hour (per instance). */
  quotesPerAddressPerHour: number;
  /** Free space (bytes) the data folder's file system keeps: submissions and files are refused below it; 0 = off. */
  minFreeDiskBytes: number;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_PROVIDER_PHONE = '020 7946 0000';
export const DEFAULT_PROVIDER_EMAIL = 'team@advisory.example';
export const DEFAULT_FOOTER_BLURB =
  'Our due diligence report is backed by professional indemnity insurance. It confirms that a ' +
  "project's insurance programme is complete, placed at the right levels and with the most " +
  'appropriate provider, or it identifies the gaps in cover.';
export const DEFAULT_REGULATORY_TEXT =
  'This portal is a fictional demonstration. Advisory Example Ltd is not a real company: it is not ' +
  'registered anywhere, holds no regulatory permissions and does not arrange insurance. Nothing ' +
  'here is advice or an offer of insurance.';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PREFIX = /^[a-z0-9][a-z0-9-]{0,39}$/;

/** The repository root, found from this file's own location (src/ or dist/ of apps/api). */
function repoRoot(): string {
  return path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
}

/**
 * Reads and checks the configuration. Every bad value is reported, not only the first.
 *
 * @param env - the environment (normally `process.env`)
 * @returns the checked configuration
 * @throws ConfigError listing each bad value with a plain message
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const baseDir = env.INIT_CWD ?? process.cwd();
  const get = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
      problems.push(`${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
      return fallback;
    }
    return value;
  };
  const email = (name: string, fallback: string): string => {
    const value = get(name) ?? fallback;
    const address = /<([^>]+)>\s*$/.exec(value)?.[1] ?? value;
    if (!EMAIL.test(address)) problems.push(`${name} must be an e-mail address (got "${value}").`);
    return value;
  };
  // The provider's contact details are shown and linked (`mailto:`, `tel:`) on every page: held to what the
  // staff tool takes for a client's (found by the seventeenth session's fault probe: `x?bcc=…` and a phone with
  // a line break were served).
  const contactEmail = (): string => {
    const value = (get('PROVIDER_EMAIL') ?? DEFAULT_PROVIDER_EMAIL).trim();
    if (!CONTACT_EMAIL.test(value)) {
      problems.push(
        `PROVIDER_EMAIL must be ${CONTACT_EMAIL_RULE} (got "${shownText(value, 300)}"${unshownNote(value)}).`,
      );
    }
    return value;
  };
  const contactPhone = (): string => {
    const value = (get('PROVIDER_PHONE') ?? DEFAULT_PROVIDER_PHONE).trim();
    const problem = lineProblem('PROVIDER_PHONE', value, MAX_CONTACT_PHONE);
    if (problem !== undefined) problems.push(problem.replace(/^The /, ''));
    return value;
  };
  const url = (name: string, raw: string, protocols: string[]): URL | null => {
    let parsed: URL;
    try {
      parsed = new URL(raw);
      if (!protocols.includes(parsed.protocol)) throw new Error('protocol');
    } catch {
      problems.push(
        `${name} must be a ${protocols.join(' or ')}// URL (got "${withoutPassword(raw)}").`,
      );
      return null;
    }
    const problem = credentialsProblem(parsed);
    if (problem !== undefined) {
      problems.push(`${name}: ${problem}.`);
      return null;
    }
    return parsed;
  };

  const port = integer('PORT', 3000, 1, 65535);
  const host = get('HOST') ?? '127.0.0.1';
  // Set but empty (`DATA_DIR=$UNSET_VARIABLE`) is a mistake, not the default: the server or the staff tool would
  // quietly start an empty database in ./data (found by the eighteenth session's fault probe).
  // So are DATABASE_URL and SESSION_SECRET (found by the nineteenth session's fault probe): an empty one meant
  // SQLite in DATA_DIR, or a secret of this DATA_DIR's own, where several instances need the same.
  const SET_BUT_EMPTY = {
    DATA_DIR: 'name the data folder, or unset it for ./data',
    DATABASE_URL: 'give the PostgreSQL URL, or unset it for SQLite in DATA_DIR',
    SESSION_SECRET: 'give the secret, or unset it for one kept in DATA_DIR',
  };
  for (const [name, what] of Object.entries(SET_BUT_EMPTY)) {
    if (env[name] !== undefined && env[name].trim() === '') {
      problems.push(`${name} is set but empty: ${what}.`);
    }
  }
  const dataDir = path.resolve(baseDir, get('DATA_DIR') ?? './data');

  const databaseUrl = get('DATABASE_URL') ?? null;
  if (databaseUrl !== null) url('DATABASE_URL', databaseUrl, ['postgres:', 'postgresql:']);
  const databaseSchema = get('DATABASE_SCHEMA') ?? null;
  if (databaseSchema !== null && !/^[a-z_][a-z0-9_]{0,62}$/.test(databaseSchema)) {
    problems.push(`DATABASE_SCHEMA must be a lower-case SQL identifier (got "${databaseSchema}").`);
  } else if (
    databaseSchema !== null &&
    (databaseSchema.startsWith('pg_') || databaseSchema === 'information_schema')
  ) {
    // PostgreSQL refuses to make a pg_ schema ("unacceptable schema name"), and its own ones are not the portal's:
    // the start failed with a JSON line and a stack (found by the thirtieth session's PostgreSQL probe).
    problems.push(
      `DATABASE_SCHEMA must not be "${databaseSchema}": PostgreSQL keeps pg_… names and information_schema for ` +
        'itself.',
    );
  }

  const publicRaw = get('PUBLIC_URL') ?? `http://127.0.0.1:${port}`;
  const publicUrl =
    url('PUBLIC_URL', publicRaw, ['http:', 'https:']) ?? new URL(`http://127.0.0.1:${port}`);
  if (publicUrl.search !== '' || publicUrl.hash !== '') {
    problems.push(`PUBLIC_URL must not have a query or fragment (got "${publicRaw}").`);
  } else if (publicUrl.username !== '' || publicUrl.password !== '' || publicUrl.pathname !== '/') {
    // Every login link carried the user and password, or a path the portal does not serve under (found by the
    // seventeenth session's fault probe). Its pages are at /{client}/ on the origin.
    problems.push(
      `PUBLIC_URL must be an origin such as https://portal.example, without a user, password or path (got "${withoutPassword(publicRaw)}").`,
    );
  }

  const allowedHosts = parseAllowedHosts(get('ALLOWED_HOSTS') ?? '');
  problems.push(...allowedHosts.problems);

  const sessionSecret = get('SESSION_SECRET') ?? null;
  if (sessionSecret !== null && sessionSecret.length < 32) {
    problems.push('SESSION_SECRET must be at least 32 characters long.');
  }

  const smtpUrl = get('SMTP_URL') ?? null;
  if (smtpUrl !== null) url('SMTP_URL', smtpUrl, ['smtp:', 'smtps:']);
  const formServiceUrl = get('FORM_SERVICE_URL') ?? null;
  if (formServiceUrl !== null) url('FORM_SERVICE_URL', formServiceUrl, ['http:', 'https:']);

  const defaultClient = get('DEFAULT_CLIENT') ?? 'demo';
  if (!PREFIX.test(defaultClient)) {
    problems.push(`DEFAULT_CLIENT must be a client prefix like "demo" (got "${defaultClient}").`);
  }

  const trustProxyRaw = get('TRUST_PROXY') ?? 'false';
  if (!['true', 'false'].includes(trustProxyRaw)) {
    problems.push(`TRUST_PROXY must be true or false (got "${trustProxyRaw}").`);
  }
  const logLevel = get('LOG_LEVEL') ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) {
    problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}").`);
  }

  const config: Config = {
    port,
    host,
    dataDir,
    databaseUrl,
    databaseSchema,
    databasePoolSize: integer('DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseTimeoutMs: integer('DATABASE_TIMEOUT_MS', 10_000, 100, 600_000),
    publicUrl,
    allowedHosts: allowedHosts.hosts,
    sessionSecret,
    smtpUrl,
    mailFrom: email('MAIL_FROM', 'Client portal <portal@advisory.example>'),
    teamEmail: email('TEAM_EMAIL', DEFAULT_PROVIDER_EMAIL),
    formServiceUrl,
    providerPhone: contactPhone(),
    providerEmail: contactEmail(),
    footerBlurb: get('FOOTER_BLURB') ?? DEFAULT_FOOTER_BLURB,
    regulatoryText: get('REGULATORY_TEXT') ?? DEFAULT_REGULATORY_TEXT,
    contentDir: path.resolve(baseDir, get('CONTENT_DIR') ?? path.join(repoRoot(), 'content')),
    portalDist: path.resolve(
      baseDir,
      get('PORTAL_DIST') ?? path.join(repoRoot(), 'apps', 'portal', 'dist'),
    ),
    defaultClient,
    trustProxy: trustProxyRaw === 'true',
    logLevel,
    loginLimitPerEmail: integer('LOGIN_LIMIT_PER_EMAIL', 5, 1, 10_000),
    loginLimitPerAddress: integer('LOGIN_LIMIT_PER_ADDRESS', 20, 1, 100_000),
    loginWindowMinutes: integer('LOGIN_LIMIT_WINDOW_MINUTES', 15, 1, 1440),
    outboxPollMs: integer('OUTBOX_POLL_MS', 2000, 100, 3_600_000),
    dueDiligencePerHour: integer('DUE_DILIGENCE_LIMIT_PER_HOUR', 20, 1, 1_000_000),
    dueDiligencePerAddressPerHour: integer('DUE_DILIGENCE_LIMIT_PER_ADDRESS', 60, 1, 1_000_000),
    quotesPerHour: integer('QUOTE_LIMIT_PER_HOUR', 60, 1, 1_000_000),
    quotesPerAddressPerHour: integer('QUOTE_LIMIT_PER_ADDRESS', 300, 1, 1_000_000),
    minFreeDiskBytes: integer('MIN_FREE_DISK_MB', 512, 0, 100_000_000) * 1024 * 1024,
  };
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * Returns SESSION_SECRET, or the secret kept in `dataDir/session-secret`, generating it (mode 0600) on first run.
 */
export function resolveSessionSecret(config: Config): string {
  if (config.sessionSecret !== null) return config.sessionSecret;
  const file = path.join(config.dataDir, 'session-secret');
  if (existsSync(file)) {
    let kept: string;
    try {
      kept = readFileSync(file, 'utf8').trim();
    } catch (error) {
      // Unreadable (its rights, a folder of that name): one plain line, not a stack (found by the sixteenth
      // session's fault probe). A new secret is not made in its place: it would end every session.
      const code = String((error as { code?: unknown }).code ?? 'unknown error');
      throw new StorageError(
        `The session secret in ${file} cannot be read (${code}). It must be a file the server can read, or set SESSION_SECRET.`,
        { cause: error },
      );
    }
    // A kept secret too short to use (emptied, truncated, or a link to some other file) was replaced without a
    // word, through the link if it was one (a root-run server overwrote /etc/hostname that way) and with that
    // file's mode: found by the seventeenth session's fault probe. It is refused instead, as a short
    // SESSION_SECRET is.
    if (kept.length < 32) {
      throw new StorageError(
        `The session secret in ${file} is too short (${kept.length} characters; at least 32). Delete the file ` +
          'to have a new one made (everyone is logged out), or set SESSION_SECRET.',
      );
    }
    // A secret other users of the machine can read lets them sign anyone's session (found by the eighteenth
    // session's fault probe: a link to /etc/passwd was taken as the secret).
    const mode = statSync(file).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      throw new StorageError(
        `The session secret in ${file} can be read by other users of this machine (mode ${mode.toString(8)}), ` +
          `who could sign anyone's session with it: make it its owner's alone (chmod 600), or set SESSION_SECRET.`,
      );
    }
    return kept;
  }
  const secret = randomBytes(48).toString('base64url');
  makeDataDir(config.dataDir);
  removeKilledSecretDrafts(config.dataDir);
  // Written whole under a name of its own first, then given its name. Made under its name at once, a start killed
  // (or a disk filled, a power cut) between making the file and writing it left an empty session-secret, and every
  // later start stopped on "too short (0 characters)" until someone deleted it (found by the thirty-first session's
  // crash probe).
  const draft = path.join(
    config.dataDir,
    `.session-secret-${process.pid}-${randomBytes(6).toString('hex')}.tmp`,
  );
  // Made only if nothing is there by that name, not even a link: never written through a link into another file.
  // On the disk before it is used: a secret lost to a power cut would end every session it signed.
  const writeSecret = (name: string) => {
    const fd = openSync(name, 'wx', 0o600);
    try {
      writeSync(fd, `${secret}\n`);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  };
  try {
    writeSecret(draft);
    // Linked, not renamed: given only if nothing is there by that name, not even a link.
    try {
      linkSync(draft, file);
    } catch (error) {
      // A file system without hard links (FAT, exFAT, some network shares): made under its name, as before.
      if (!NO_HARD_LINKS.has(String((error as { code?: unknown }).code))) throw error;
      writeSecret(file);
    }
    rmSync(draft, { force: true });
    // And its name in the folder (left alone by the eighteenth session's fault probe): after a power cut the
    // file could be gone while sessions signed with it were handed out.
    const folder = openSync(config.dataDir, 'r');
    try {
      fsyncSync(folder);
    } finally {
      closeSync(folder);
    }
  } catch (error) {
    rmSync(draft, { force: true });
    const code = String((error as { code?: unknown }).code ?? 'unknown error');
    throw new StorageError(
      `The session secret cannot be written to ${file} (${code}). ${WRITABLE_DATA_DIR}`,
      { cause: error },
    );
  }
  return secret;
}

/** What `link` fails with on a file system that has no hard links. */
const NO_HARD_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']);

/** A session secret being written (`resolveSessionSecret`), by process `pid`. */
const SECRET_DRAFT = /^\.session-secret-(\d+)-[0-9a-f]{12}\.tmp$/;

/** Deletes the session secrets a killed start left half-written (their process is gone): never used, never read. */
function removeKilledSecretDrafts(dataDir: string): void {
  let names: string[];
  try {
    names = readdirSync(dataDir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = Number(SECRET_DRAFT.exec(name)?.[1]);
    if (Number.isSafeInteger(pid) && pid > 0 && pid !== process.pid && processGone(pid)) {
      rmSync(path.join(dataDir, name), { force: true });
    }
  }
}

/** The public URL with a path appended (`/demo/dashboard` → `https://portal.example/demo/dashboard`). */
export function publicLink(config: Config, pathname: string): string {
  const base = config.publicUrl.href.replace(/\/+$/, '');
  return `${base}${pathname}`;
}

/**
 * What is wrong with a URL's user name or password, if anything: a `%` that starts no escape (`pa%ss`) is taken by
 * the URL parser, but cannot be decoded to send, so every forward failed with "URI malformed", for ever (found by
 * the twenty-third session's staff-tool probe). Says nothing of the password itself.
 */
/**
 * A URL as a start-up refusal quotes it: whatever lies between the `:` after the user name and the last `@` written
 * as `***`, as the staff tool prints a forward's address. A URL refused for its scheme (`smpts://mailer:pw@…`,
 * `postgress://…`) was quoted whole, its password in the server's log (found by the twenty-ninth session's probe).
 * Text, not the URL parser: the value may not parse, and its password is hidden all the same.
 */
export function withoutPassword(raw: string): string {
  return raw.replace(/^([^:/?#]+:(?:\/\/)?[^:/?#@]*:).*@/s, '$1***@');
}

export function credentialsProblem(parsed: URL): string | undefined {
  try {
    decodeURIComponent(parsed.username);
    decodeURIComponent(parsed.password);
    return undefined;
  } catch {
    return 'its user name or password holds a "%" that starts no escape: write a % in them as %25';
  }
}
