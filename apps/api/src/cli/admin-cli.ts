import { CONTACT_EMAIL, CONTACT_EMAIL_RULE, unshownNote } from '../email-address.js';
import { link, open, unlink } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Clock } from '../clock.js';
import { systemClock } from '../clock.js';
import { ConfigError, credentialsProblem, loadConfig, withoutPassword } from '../config.js';
import { openDatabase, type Db } from '../db/connect.js';
import { START_LOCK_WAIT_MS } from '../db/migrations.js';
import { FILES_REPLACED } from '../db/sqlite-files.js';
import { isDatabaseUnavailable, postgresProblem } from '../db/unavailable.js';
import type { LoginPolicy } from '../db/schema.js';
import {
  ClientError,
  createClient,
  findClientByPrefix,
  listClients,
  updateClient,
  type Branding,
  type Client,
  type ClientChanges,
} from '../repositories/clients.js';
import {
  countUnsent,
  listUnsent,
  maskedUrl,
  OUTBOX_KINDS,
  readForward,
  readMail,
  redirectForwards,
  type OutboxRow,
} from '../repositories/outbox.js';
import { listActivity, listDueDiligence, listQuotes } from '../repositories/records.js';
import {
  ContentError,
  isHexColour,
  prefixProblem,
  quotedPrefix,
} from '../services/content-rules.js';
import { toCsv } from '../services/csv.js';
import { shownText } from '../services/shown-text.js';
import { StorageError } from '../storage-error.js';

export const USAGE = `Usage: pnpm admin <command>

  client add --prefix P --name N --login open|magic-link [--primary #hex] [--accent #hex]
             [--phone TEXT] [--email ADDRESS]
  client list
  client update --prefix P [--name N] [--login open|magic-link] [--primary #hex] [--accent #hex]
                [--phone TEXT] [--email ADDRESS]      (--phone "" / --email "" go back to the default)
                [--remove-logo]                       (a logo is set by content import, from client.yml)
  content import --client P FOLDER [--allow-empty]
                                 Makes the client's content match FOLDER: items whose file is gone are
                                 removed. A FOLDER with no items at all is refused unless --allow-empty
  leads export --client P [--out FILE]
                                 CSV of calculator quotes and due diligence requests, on stdout (also
                                 --out -) or into a new FILE (UTF-8 with a byte order mark, so Excel reads
                                 £ and accents)
  activity export --client P [--out FILE]
                                 CSV of page views, submits and searches, likewise
  outbox list [--kind mail|forward] [--limit N]
                                 E-mails and forwards not sent yet, oldest due first (the first 100, or N):
                                 attempts, when next, whether a worker has claimed it, the address, the last error
  outbox redirect --to URL [--from URL]
                                 Sends the forwards not sent yet (only those queued for --from, if given)
                                 to URL instead, from now on: for after correcting FORM_SERVICE_URL

Configuration comes from the environment, as for the server (DATA_DIR, DATABASE_URL, …).
`;

export interface AdminIo {
  env: NodeJS.ProcessEnv;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  clock?: Clock;
}

/** A mistake in the command line: shown with the usage, exit code 2. */
class UsageError extends Error {}
/** A command that could not be done (unknown client, bad content…): exit code 1. */
class CommandError extends Error {}

const OPTIONS = {
  prefix: { type: 'string' },
  name: { type: 'string' },
  login: { type: 'string' },
  primary: { type: 'string' },
  accent: { type: 'string' },
  phone: { type: 'string' },
  email: { type: 'string' },
  client: { type: 'string' },
  out: { type: 'string' },
  'allow-empty': { type: 'boolean' },
  'remove-logo': { type: 'boolean' },
  to: { type: 'string' },
  from: { type: 'string' },
  kind: { type: 'string' },
  limit: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The options each command takes (every command also takes --help). */
const COMMAND_OPTIONS: Record<string, readonly (keyof typeof OPTIONS)[]> = {
  'client add': ['prefix', 'name', 'login', 'primary', 'accent', 'phone', 'email'],
  'client list': [],
  'client update': [
    'prefix',
    'name',
    'login',
    'primary',
    'accent',
    'phone',
    'email',
    'remove-logo',
  ],
  'content import': ['client', 'allow-empty'],
  'leads export': ['client', 'out'],
  'activity export': ['client', 'out'],
  'outbox list': ['kind', 'limit'],
  'outbox redirect': ['to', 'from'],
};

type Values = {
  [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'string' ? string : boolean;
};

function required(values: Values, name: 'prefix' | 'name' | 'client' | 'login' | 'to'): string {
  const value = values[name];
  if (value === undefined || value.trim() === '') throw new UsageError(`--${name} is required.`);
  return value.trim();
}

/**
 * `(got "VALUE")` for a refusal: the value without the control characters that would drive the terminal (an
 * `--login` or `--primary` with ESC [2J cleared the staff's screen, and one with U+0085 was quoted as the valid
 * `open`: found by the twenty-ninth session's probe), and the first character that shows nothing named.
 */
function got(value: string): string {
  return `(got "${shownText(value)}"${unshownNote(value.replaceAll(' ', ''))})`;
}

function loginPolicy(value: string): LoginPolicy {
  if (value !== 'open' && value !== 'magic-link') {
    throw new UsageError(`--login must be open or magic-link ${got(value)}.`);
  }
  return value;
}

function branding(values: Values): Partial<Branding> {
  const result: Partial<Branding> = {};
  for (const key of ['primary', 'accent'] as const) {
    const value = values[key];
    if (value !== undefined) {
      if (!isHexColour(value))
        throw new UsageError(`--${key} must be a colour like #1f3a5f ${got(value)}.`);
      result[key] = value;
    }
  }
  return result;
}

function contactEmail(value: string | undefined): string | null | undefined {
  if (value === undefined) return undefined;
  if (value.trim() === '') return null;
  if (!CONTACT_EMAIL.test(value.trim())) {
    throw new UsageError(
      `--email must be ${CONTACT_EMAIL_RULE} (got "${shownText(value, 300)}"${unshownNote(value)}).`,
    );
  }
  return value.trim();
}

/** Whether a client's settings (what `client update` sets) are the same in `a` and `b`. */
function sameSettings(a: Client, b: Client): boolean {
  return (
    a.name === b.name &&
    a.loginPolicy === b.loginPolicy &&
    a.contactPhone === b.contactPhone &&
    a.contactEmail === b.contactEmail &&
    a.branding.primary === b.branding.primary &&
    a.branding.accent === b.branding.accent &&
    a.branding.logo_url === b.branding.logo_url
  );
}

async function clientByPrefix(db: Db, prefix: string): Promise<Client> {
  const client = await findClientByPrefix(db.kysely, prefix);
  if (client === undefined)
    throw new CommandError(`There is no client with the prefix ${quotedPrefix(prefix)}.`);
  return client;
}

async function run(
  command: string,
  values: Values,
  positionals: string[],
  db: Db,
  io: AdminIo,
  dataDir: string,
) {
  const now = (io.clock ?? systemClock)();
  switch (command) {
    case 'client add': {
      const prefix = required(values, 'prefix');
      const problem = prefixProblem(prefix);
      if (problem !== undefined) throw new UsageError(problem);
      if ((await findClientByPrefix(db.kysely, prefix)) !== undefined) {
        throw new CommandError(`A client with the prefix "${prefix}" already exists.`);
      }
      const email = contactEmail(values.email);
      const client = await createClient(
        db.kysely,
        {
          prefix,
          name: required(values, 'name'),
          loginPolicy: loginPolicy(required(values, 'login')),
          branding: branding(values),
          contactPhone: values.phone?.trim() || null,
          contactEmail: email ?? null,
        },
        now,
      );
      io.stdout(`Created client ${client.prefix} (${client.name}, login ${client.loginPolicy}).\n`);
      return;
    }
    case 'client list': {
      const clients = await listClients(db.kysely);
      if (clients.length === 0) {
        io.stdout('No clients yet.\n');
        return;
      }
      for (const c of clients) {
        io.stdout(
          `${c.prefix}\t${c.name}\t${c.loginPolicy}\tprimary ${c.branding.primary}\taccent ${c.branding.accent}` +
            `\tphone ${c.contactPhone ?? '(default)'}\temail ${c.contactEmail ?? '(default)'}\n`,
        );
      }
      return;
    }
    case 'client update': {
      const client = await clientByPrefix(db, required(values, 'prefix'));
      const changes: ClientChanges = { branding: branding(values) };
      const removeLogo = values['remove-logo'] === true;
      if (removeLogo) {
        if (client.branding.logo_url === null) {
          throw new CommandError(`Client ${client.prefix} has no logo to remove.`);
        }
        changes.branding = { ...changes.branding, logo_url: null };
      }
      // Given blank, said as a name of nothing that shows is (`--name is required` was told to an update, which
      // needs no name: twenty-ninth session's probe).
      if (values.name !== undefined) changes.name = values.name.trim();
      if (values.login !== undefined) changes.loginPolicy = loginPolicy(values.login);
      if (values.phone !== undefined) changes.contactPhone = values.phone.trim() || null;
      const email = contactEmail(values.email);
      if (email !== undefined) changes.contactEmail = email;
      // Found by the thirtieth session: `client update --prefix acme` alone, or with what acme already had,
      // printed "Updated client", as if something had changed.
      if (Object.keys(values).every((option) => option === 'prefix')) {
        throw new UsageError(
          'client update needs a change: --name, --login, --primary, --accent, --phone, --email or --remove-logo.',
        );
      }
      const updated = await updateClient(db.kysely, client, changes);
      io.stdout(
        sameSettings(client, updated)
          ? `Client ${updated.prefix} already had these settings: nothing changed.\n`
          : `Updated client ${updated.prefix} (${updated.name}, login ${updated.loginPolicy}${removeLogo ? ', logo removed' : ''}).\n`,
      );
      // The logo's file, named by nothing now, is deleted by a later sweep (an hour on at the least: pages sent
      // before keep loading it); this sweep marks it, and deletes what earlier sweeps found unused.
      if (removeLogo) {
        const { sweepUnusedMedia } = await import('../services/content-import.js');
        await sweepUnusedMedia(db.kysely, updated, path.join(dataDir, 'media'));
      }
      return;
    }
    case 'content import': {
      const client = await clientByPrefix(db, required(values, 'client'));
      const folder = positionals[0];
      if (folder === undefined || positionals.length > 1) {
        throw new UsageError('content import needs exactly one FOLDER.');
      }
      const base = io.env.INIT_CWD ?? process.cwd();
      // Loaded here: its parsers (JSDOM) took about a second of every staff command's start.
      const { importContent } = await import('../services/content-import.js');
      const summary = await importContent(
        db.kysely,
        client,
        path.resolve(base, folder),
        path.join(dataDir, 'media'),
        now,
        { allowEmpty: values['allow-empty'] === true },
      );
      const { removed } = summary;
      io.stdout(
        `Imported into ${client.prefix}: ${summary.case_study} case studies, ${summary.insight} insights, ` +
          `${summary.topic} topics${summary.video ? ', a video' : ''}.\n` +
          `Removed (no longer in the folder): ${removed.case_study} case studies, ${removed.insight} insights, ` +
          `${removed.topic} topics${removed.video ? ', the video' : ''}; ` +
          `${summary.media_removed.length} unused media files.\n`,
      );
      for (const note of summary.notes) io.stderr(`Note: ${shownText(note, MAX_MESSAGE)}\n`);
      if (summary.media_problem !== null) {
        io.stderr(
          `The content was imported, but its media could not be checked afterwards (${summary.media_problem}). ` +
            `Running the import again does it.\n`,
        );
      }
      return;
    }
    case 'leads export': {
      const client = await clientByPrefix(db, required(values, 'client'));
      const quotes = await listQuotes(db.kysely, client.id);
      const requests = await listDueDiligence(db.kysely, client.id);
      const rows = [
        ...quotes.map((q) => [
          q.created_at,
          q.reference,
          q.kind,
          q.contact_name,
          q.contact_email,
          q.contact_phone,
          summariseQuote(q.kind, q.quote),
          q.rate_table_version,
        ]),
        ...requests.map((r) => [
          r.created_at,
          r.reference,
          'due_diligence',
          r.full_name,
          r.email,
          '',
          `${r.project_name}; ${r.project_address}; ${r.city_postcode}` +
            (r.attachment_name === null ? '' : `; file ${r.attachment_name}`),
          '',
        ]),
      ].sort((a, b) => String(a[0]).localeCompare(String(b[0])));
      const header = [
        'created_at',
        'reference',
        'kind',
        'name',
        'email',
        'phone',
        'summary',
        'rate_table_version',
      ];
      await writeCsv(io, values.out, toCsv(header, rows), rows.length);
      return;
    }
    case 'activity export': {
      const client = await clientByPrefix(db, required(values, 'client'));
      const rows = await listActivity(db.kysely, client.id);
      const csv = toCsv(
        ['at', 'action', 'item', 'email', 'first_name', 'last_name'],
        rows.map((r) => [r.at, r.action, r.item, r.email, r.first_name, r.last_name]),
      );
      await writeCsv(io, values.out, csv, rows.length);
      return;
    }
    case 'outbox list': {
      const kinds = outboxKinds(values.kind);
      const limit = listLimit(values.limit);
      const counts = await countUnsent(db.kysely);
      const waiting = kinds.reduce((sum, kind) => sum + counts[kind], 0);
      if (waiting === 0) {
        io.stdout(
          kinds.length === 1
            ? `Nothing waiting: every ${nounOf(kinds[0] ?? 'mail')} has been sent.\n`
            : 'Nothing waiting: every e-mail and forward has been sent.\n',
        );
        return;
      }
      io.stdout(
        `${waiting} waiting: ${kinds.map((kind) => counted(counts[kind], kind)).join(', ')}.\n`,
      );
      const rows = await listUnsent(db.kysely, kinds, limit);
      for (const row of rows) io.stdout(`${outboxLine(row, now)}\n`);
      if (rows.length < waiting) {
        // The list stops at the limit: 50,000 rows waiting took 3.6 s and 220 MB to print whole (noted by the
        // twenty-first session's scale probe).
        io.stdout(
          `… and ${waiting - rows.length} more, not shown (--limit N shows more` +
            `${kinds.length > 1 ? '; --kind mail or --kind forward, one kind' : ''}).\n`,
        );
      }
      return;
    }
    case 'outbox redirect': {
      const to = formServiceUrl('--to', required(values, 'to'));
      const from = values.from === undefined ? null : formServiceUrl('--from', values.from);
      const { changed, inFlight, claimedUntil, unreadable } = await redirectForwards(
        db.kysely,
        to,
        from,
        now,
      );
      if (unreadable > 0) {
        io.stderr(
          `Note: ${unreadable} waiting ${unreadable === 1 ? 'forward' : 'forwards'} could not be read ` +
            `(edited by hand?) and ${unreadable === 1 ? 'was' : 'were'} left as ${unreadable === 1 ? 'it was' : 'they were'}.\n`,
        );
      }
      if (changed === 0) {
        const waiting = [
          ...new Set(
            (await listUnsent(db.kysely, ['forward'])).flatMap((r) => {
              const job = readForward(r.payload);
              return job === undefined ? [] : [shownUrl(job.url)];
            }),
          ),
        ].sort();
        // Nothing waiting at all is nothing to do, with or without --from; waiting forwards none of which is for
        // --from is most likely a mistyped address.
        if (from === null || waiting.length === 0) {
          io.stdout('No forwards are waiting: nothing to redirect.\n');
          return;
        }
        throw new CommandError(
          `No forward waiting was queued for ${shownUrl(from)}. ` +
            `The forwards waiting are for: ${waiting.join(', ')}.`,
        );
      }
      io.stdout(
        `Redirected ${changed} ${changed === 1 ? 'forward' : 'forwards'} to ${shownUrl(to)}; ` +
          `${changed === 1 ? 'it is' : 'they are'} due now.\n`,
      );
      if (inFlight > 0) {
        io.stderr(
          `Note: ${inFlight} of them ${inFlight === 1 ? 'was' : 'were'} claimed by a worker (until ` +
            `${claimedUntil ?? '?'}, or until it has finished with ${inFlight === 1 ? 'it' : 'them'}): ` +
            `any already on its way to the old address finishes that attempt there (if it fails, the next goes to ` +
            `the new address at once); the others go to the new one.\n`,
        );
      }
      return;
    }
    default:
      throw new UsageError(`Unknown command "${command}".`);
  }
}

/** The kinds `outbox list --kind` asks for: both when not given. */
function outboxKinds(kind: string | undefined): readonly OutboxRow['kind'][] {
  if (kind === undefined) return OUTBOX_KINDS;
  const wanted = OUTBOX_KINDS.find((k) => k === kind.trim());
  if (wanted === undefined) throw new UsageError(`--kind must be mail or forward ${got(kind)}.`);
  return [wanted];
}

/** The most rows `outbox list` prints unless told otherwise. */
const LIST_LIMIT = 100;

function listLimit(limit: string | undefined): number {
  if (limit === undefined) return LIST_LIMIT;
  const text = limit.trim();
  const n = /^\d{1,9}$/.test(text) ? Number(text) : 0;
  if (n < 1) {
    throw new UsageError(`--limit must be a whole number from 1 to 999999999 ${got(limit)}.`);
  }
  return n;
}

/** "1 e-mail", "3 forwards". */
function counted(n: number, kind: OutboxRow['kind']): string {
  return `${n} ${nounOf(kind)}${n === 1 ? '' : 's'}`;
}

/** What a row of a kind is called: "e-mail", "forward". */
function nounOf(kind: OutboxRow['kind']): string {
  return kind === 'mail' ? 'e-mail' : 'forward';
}

/**
 * A command line Node's parser refused, in one line of the tool's own words. Node's take three lines ("argument
 * is ambiguous. Did you forget…", for `--limit -1`) or quote unevenly (`Unknown option '--x'. … '-- "--x"`);
 * found by the twenty-second session's probe.
 */
function argumentsProblem(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const option = /'(--?[^' <]+)/.exec(message)?.[1];
  if (option === undefined) return message.split('\n')[0] ?? message;
  const shown = shownText(option);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    // `--remove-logo=false`, `--allow-empty=yes`: a switch given a value was told it "needs a value" (found by the
    // twenty-ninth session's probe).
    if (message.includes('does not take an argument')) {
      return `${shown} takes no value: give it alone to turn it on, or leave it out.`;
    }
    return message.includes('ambiguous')
      ? `${shown} needs a value: one that starts with "-" is written ${shown}=VALUE.`
      : `${shown} needs a value.`;
  }
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return `Unknown option ${shown}.`;
  return message.split('\n')[0] ?? message;
}

/** An address for the form service, as FORM_SERVICE_URL takes it (http or https). */
/** An http(s) URL for `--to` or `--from`; a refusal quotes it with its password as `***`, as `outbox list` does. */
function formServiceUrl(option: string, raw: string): string {
  const text = raw.trim();
  // The URL parser drops tabs and line breaks and encodes spaces without a word: an address typed or pasted with
  // them is refused rather than read as another (found by the twenty-first session's staff-tool probe).
  if (/[\s\p{Cc}]/u.test(text)) {
    throw new UsageError(
      `${option} must be one URL without spaces or control characters (got "${shownText(withoutPassword(raw))}").`,
    );
  }
  if (text.length > MAX_URL_LENGTH) {
    throw new UsageError(`${option} is longer than ${MAX_URL_LENGTH} characters.`);
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(text);
  } catch {
    // said below
  }
  if (parsed !== undefined && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) {
    const problem = credentialsProblem(parsed);
    if (problem !== undefined) throw new UsageError(`${option}: ${problem}.`);
    return parsed.href;
  }
  throw new UsageError(
    `${option} must be an http:// or https:// URL, as FORM_SERVICE_URL is (got "${shownText(withoutPassword(raw))}").`,
  );
}

/** The most characters of an error message the staff tool prints (one line). */
const MAX_MESSAGE = 4_000;

/** What a command stopped by an unavailable database did: said after why. */
const UNFINISHED =
  'The command did not finish; what it had written in its unfinished step was taken back.';

/**
 * SQLite busy (another process's write lock, past the minute's wait), mid-command. PostgreSQL out of reach is said
 * by `postgresProblem`, naming its host and port: found by the twenty-fifth session's PostgreSQL probe, this line
 * blamed another process's write lock held for a minute on a PostgreSQL that refused the connection in 2 s.
 */
export const DATABASE_BUSY_MESSAGE =
  'The database stayed busy: another process (a server, or another run of this tool) held its write lock for ' +
  `over a minute. ${UNFINISHED} Try again when the other process is done`;

/**
 * The database's file, or its -wal or -shm file, deleted or replaced by another program while the command had it
 * open (sqlite-files.ts): its writes are refused from then on, to keep the data from being damaged.
 */
export function filesReplacedMessage(name: string): string {
  return (
    `The database's ${shownText(name, 200)} file was deleted or replaced by another program while this command ` +
    `had it open, so its writes were refused to keep the data from being damaged. ${UNFINISHED} Stop every ` +
    'process using DATA_DIR (servers, other runs of this tool), ' +
    (name.endsWith('.sqlite')
      ? `put ${shownText(name, 200)} back where it was (beside its -wal file: the latest writes are there), `
      : '') +
    'start the server again, then run the command again.'
  );
}

/** The base name of the database file found replaced, when `error` (or what it wraps) says so. */
function replacedFileOf(error: unknown): string | undefined {
  for (let current = error, depth = 0; depth < 5; depth++) {
    if (typeof current !== 'object' || current === null) return undefined;
    const { code, file } = current as { code?: unknown; file?: unknown };
    if (code === FILES_REPLACED) return typeof file === 'string' ? file : 'WAL';
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The longest form-service address the staff tool takes. */
const MAX_URL_LENGTH = 2_000;

/**
 * A URL to print whole (cut, two addresses could print alike and neither could be copied back into `--from`), with
 * a password starred out, which `--from` matches as it is printed.
 */
function shownUrl(url: string): string {
  return shownText(maskedUrl(url), MAX_URL_LENGTH);
}

/** One waiting row of `outbox list`, tab-separated. */
function outboxLine(row: OutboxRow, now: Date): string {
  const due = row.next_attempt_at <= now.toISOString() ? 'due now' : `next ${row.next_attempt_at}`;
  // Claimed: a worker is sending it (to the address it had when that attempt began), or one that stopped holds it
  // until then.
  const sending =
    row.locked_until !== null && row.locked_until > now.toISOString()
      ? `\tclaimed until ${row.locked_until}`
      : '';
  let what = '(its content cannot be read)';
  if (row.kind === 'mail') {
    const mail = readMail(row.payload);
    if (mail !== undefined) what = `to ${shownText(mail.to)}\t"${shownText(mail.subject)}"`;
  } else {
    const job = readForward(row.payload);
    if (job !== undefined) {
      what = `to ${shownUrl(job.url)}${job.file === undefined ? '' : `\twith ${shownText(job.file.filename)}`}`;
    }
  }
  const error =
    row.last_error === null
      ? ''
      : `\tlast error: ${shownText(row.last_error.split('\n')[0] ?? '')}`;
  return `${row.kind}\t${row.id}\tqueued ${row.created_at}\tattempts ${row.attempts}\t${due}${sending}\t${what}${error}`;
}

/** Marks a file as UTF-8 for Excel, which otherwise reads a CSV in the system's legacy code page (£ → Â£). */
const UTF8_BOM = '\ufeff';

/**
 * An export: on stdout as it is (for pipes and scripts; also `--out -`), or, with `--out`, into a new file with a byte
 * order mark.
 * The file is written whole under a temporary name and then linked to its name, which fails if that name exists:
 * an export never overwrites a file, and a failed one leaves no partial file behind.
 */
async function writeCsv(io: AdminIo, out: string | undefined, csv: string, rows: number) {
  // `-` is standard output, as in most command-line tools (a file named `-` was written until the thirtieth session).
  if (out === undefined || out === '-') {
    io.stdout(csv);
    return;
  }
  if (out.trim() === '') throw new UsageError('--out needs a file name.');
  const target = path.resolve(io.env.INIT_CWD ?? process.cwd(), out);
  // Short, whatever the target's name: `.<name>.<pid>.<ms>.tmp` passed the file system's 255 bytes for a name the
  // target itself could have (found by the twenty-fourth session's fault probe: ENAMETOOLONG).
  const tmp = path.join(path.dirname(target), `.export-${process.pid}-${Date.now()}.tmp`);
  try {
    const file = await open(tmp, 'wx', 0o600);
    try {
      await file.writeFile(UTF8_BOM + csv, 'utf8');
      await file.sync();
    } finally {
      await file.close();
    }
    await link(tmp, target);
  } catch (error) {
    throw new CommandError(exportProblem(error, out));
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  io.stdout(`Wrote ${rows} ${rows === 1 ? 'row' : 'rows'} to ${target}.\n`);
}

function exportProblem(error: unknown, out: string): string {
  const shown = `"${shownText(out)}"`;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'EEXIST')
    return `${shown} already exists: choose another name, or move it away first.`;
  if (code === 'ENOENT') return `The folder of ${shown} does not exist.`;
  if (code === 'EISDIR') return `${shown} is a folder: give a file name.`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
    return `${shown} cannot be written here (no permission, or read-only storage).`;
  }
  if (code === 'ENOSPC') return `${shown} could not be written: the disk is full.`;
  return `${shown} could not be written (${code ?? (error instanceof Error ? error.message : String(error))}).`;
}

/**
 * What the staff tool says when its standard output could not be written (found by the seventeenth session's fault
 * probe: an export piped into `head`, or redirected onto a full disk, ended in an unhandled 'error' event's stack).
 */
export function stdoutProblem(error: NodeJS.ErrnoException): string {
  if (error.code === 'EPIPE') {
    return 'The output was cut short: the program reading it stopped reading (EPIPE).';
  }
  if (error.code === 'ENOSPC') {
    return 'The output could not be written: the disk is full (ENOSPC).';
  }
  return `The output could not be written (${error.code ?? error.message}).`;
}

function summariseQuote(kind: string, json: string): string {
  const q = JSON.parse(json) as Record<string, unknown>;
  if (kind === 'warranty') return `estimate ${String(q.estimate)}`;
  if (kind === 'btr') return `total ${String(q.total)}`;
  return `low ${String(q.low)} / medium ${String(q.medium)} / high ${String(q.high)}`;
}

/**
 * An error's message, followed by those of the errors it wraps (`cause`) that it does not already say: "Database
 * migration 0012_x failed: duplicate column …".
 */
function messageOf(error: unknown): string {
  let text = error instanceof Error ? error.message : String(error);
  let current: unknown = error instanceof Error ? error.cause : undefined;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    if (current.message !== '' && !text.includes(current.message)) text += `: ${current.message}`;
    current = current.cause;
  }
  return text;
}

/**
 * The staff tool. Returns the exit code: 0 done, 1 the command failed, 2 the command line is wrong.
 */
export async function runAdmin(argv: string[], io: AdminIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    io.stderr(`${argumentsProblem(error)}\n\n${USAGE}`);
    return 2;
  }
  const [noun, verb, ...rest] = parsed.positionals;
  if (parsed.values.help === true || noun === 'help') {
    io.stdout(USAGE);
    return 0;
  }
  // No command at all is a command line that does nothing, as a wrong one is: the usage on stderr, exit code 2
  // (found by the nineteenth session's fault probe: exit 0, so a script missing its arguments looked done).
  if (noun === undefined) {
    io.stderr(`No command given.\n\n${USAGE}`);
    return 2;
  }
  let config;
  try {
    config = loadConfig(io.env);
  } catch (error) {
    if (error instanceof ConfigError) {
      io.stderr(`${error.message}\n`);
      return 1;
    }
    throw error;
  }
  let db: Db | undefined;
  try {
    const command = `${noun} ${verb ?? ''}`.trim();
    const allowed = COMMAND_OPTIONS[command];
    if (allowed === undefined) throw new UsageError(`Unknown command "${command}".`);
    // An option of another command is a mistake, not something to ignore: `outbox redirect --client demo`
    // redirected every client's forwards (found by the twenty-first session's staff-tool probe).
    for (const name of Object.keys(parsed.values) as (keyof typeof OPTIONS)[]) {
      if (name === 'help' || allowed.includes(name)) continue;
      const takers = Object.entries(COMMAND_OPTIONS)
        .filter(([, options]) => options.includes(name))
        .map(([taker]) => taker);
      throw new UsageError(
        `--${name} is only for ${takers.slice(0, -1).join(', ')}${takers.length > 1 ? ' and ' : ''}${takers.at(-1) ?? ''}.`,
      );
    }
    // Given twice, the last would win without a word.
    for (const name of Object.keys(OPTIONS)) {
      const given = argv.filter((arg) => arg === `--${name}` || arg.startsWith(`--${name}=`));
      if (given.length > 1) throw new UsageError(`--${name} is given more than once.`);
    }
    if (command !== 'content import' && rest.length > 0) {
      throw new UsageError(`Unexpected argument "${rest[0] ?? ''}".`);
    }
    db = await openDatabase(config, undefined, {
      // Only `client add` may make the database (a new portal set up before its server's first start).
      mustExist: command !== 'client add',
      busyWaitMs: START_LOCK_WAIT_MS,
      onLockWait: (waitMs) =>
        io.stderr(
          `Another process (a server, or another run of this tool) holds the database's write lock: ` +
            `waiting up to ${Math.round(waitMs / 1000)} s for it.\n`,
        ),
    });
    await run(command, parsed.values as Values, rest, db, io, config.dataDir);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`${error.message}\n\n${USAGE}`);
      return 2;
    }
    if (
      error instanceof CommandError ||
      error instanceof ContentError ||
      error instanceof ClientError ||
      error instanceof StorageError
    ) {
      // Messages quote content (a media reference, a front matter value): its control characters (an escape that
      // clears the screen or prints a false "Imported…") never reach the staff member's terminal (found by the
      // twenty-third session's staff-tool probe).
      io.stderr(`${shownText(error.message, MAX_MESSAGE)}\n`);
      return 1;
    }
    // PostgreSQL out of reach, or refusing the login, the database or SSL: one plain line naming its host and port,
    // as the server's start says it (found by the twenty-fifth session's PostgreSQL probe: "Failed: Database
    // migration  failed: password authentication failed for user …").
    const problem =
      config.databaseUrl === null ? undefined : postgresProblem(config.databaseUrl, error);
    if (problem !== undefined) {
      const unfinished = isDatabaseUnavailable(error) && db !== undefined ? ` ${UNFINISHED}` : '';
      io.stderr(`${shownText(problem, MAX_MESSAGE)}${unfinished}\n`);
      return 1;
    }
    // Found by the twenty-sixth session: the database's files replaced under the command (sqlite-files.ts) were
    // said as another process's write lock held for over a minute.
    const replaced = replacedFileOf(error);
    if (replaced !== undefined) {
      io.stderr(`${filesReplacedMessage(replaced)}\n`);
      return 1;
    }
    if (isDatabaseUnavailable(error)) {
      io.stderr(`${DATABASE_BUSY_MESSAGE} (${shownText(messageOf(error), MAX_MESSAGE)})\n`);
      return 1;
    }
    io.stderr(`Failed: ${shownText(messageOf(error), MAX_MESSAGE)}\n`);
    return 1;
  } finally {
    await db?.close();
  }
}
