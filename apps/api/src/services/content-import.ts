import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  lstat,
  readdir,
  readFile,
  realpath,
  rename,
  stat,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import matter from 'gray-matter';
import { JSDOM } from 'jsdom';
import type { Kysely, Transaction } from 'kysely';
import { marked } from 'marked';
import { parseDocument } from 'yaml';
import type { ContentType, Database, LoginPolicy } from '../db/schema.js';
import type { Branding, Client, NewClient } from '../repositories/clients.js';
import {
  deleteContentItems,
  deleteVideo,
  listContentKeys,
  MAX_RELATED,
  mediaReferenceTexts,
  upsertContentItem,
  upsertVideo,
  type ContentItemInput,
  type Video,
} from '../repositories/content.js';
import { fsyncPath } from './fsync.js';
import { HOST_MARK, processGone } from './process-mark.js';
import { sanitizeHtml } from './sanitize.js';
import { shownText } from './shown-text.js';
import {
  CONTROL_CHARACTER,
  FORMAT_CONTROL,
  LINE_BREAK,
  VISIBLE_CHARACTER,
} from '../text-controls.js';
import { signedDocumentType, startsWith } from './file-type.js';
import { ContentError, isHexColour, prefixProblem } from './content-rules.js';

export { ContentError, isHexColour, PREFIX, prefixProblem, quotedPrefix } from './content-rules.js';

const MEDIA_TYPES: Record<string, string> = {
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.vtt': 'text/vtt',
  '.pdf': 'application/pdf',
};
export const MEDIA_EXTENSIONS = Object.keys(MEDIA_TYPES);

/** Whether a media file's bytes are of the type its extension names (its signature; for SVG, an `<svg>` element). */
export function holdsMediaOfType(bytes: Buffer, type: string): boolean {
  switch (type) {
    case 'image/png':
    case 'image/jpeg':
    case 'image/gif':
    case 'image/webp':
    case 'application/pdf':
      return signedDocumentType(bytes)?.mime === type;
    case 'video/mp4':
      return startsWith(bytes, 'ftyp', 4);
    case 'video/webm':
      return startsWith(bytes, [0x1a, 0x45, 0xdf, 0xa3]);
    case 'text/vtt':
      return /^(\uFEFF)?WEBVTT(?:[ \t\r\n]|$)/.test(bytes.subarray(0, 64).toString('utf8'));
    case 'image/svg+xml': {
      // Text whose first element (after any XML declaration, comments and doctype) is <svg>.
      const head = bytes.subarray(0, 64 * 1024).toString('utf8');
      return /^(\uFEFF)?\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*|<!DOCTYPE[^>]*>\s*)*<svg[\s>/]/i.test(
        head,
      );
    }
    default:
      return false;
  }
}

/** What a place in the content takes: the media types of each kind, and how a message names it. */
type MediaKind = 'image' | 'video' | 'captions';
const MEDIA_KINDS: Record<MediaKind, RegExp> = {
  image: /^image\//,
  video: /^video\//,
  captions: /^text\/vtt$/,
};
const extensionsOf = (kind: MediaKind) =>
  MEDIA_EXTENSIONS.filter((ext) => MEDIA_KINDS[kind].test(MEDIA_TYPES[ext] ?? '')).join(', ');
const MEDIA_KIND_NAMES: Record<MediaKind, string> = {
  image: `an image (${extensionsOf('image')})`,
  video: `a video (${extensionsOf('video')})`,
  captions: `a captions file (${extensionsOf('captions')})`,
};
export const mediaContentType = (file: string): string | undefined =>
  MEDIA_TYPES[path.extname(file).toLowerCase()];
/** A published media file's name: a content hash and an allowed extension. */
const MEDIA_NAME = `[a-f0-9]{20}(${MEDIA_EXTENSIONS.map((e) => e.replace('.', '\\.')).join('|')})`;
const MEDIA_FILE = new RegExp(`^${MEDIA_NAME}$`);

const FOLDERS: { folder: string; type: ContentType }[] = [
  { folder: 'case-studies', type: 'case_study' },
  { folder: 'insights', type: 'insight' },
  { folder: 'topics', type: 'topic' },
];
const SLUG = /^[a-z0-9][a-z0-9-]{0,99}$/;
/** The range of front matter `order`: PostgreSQL's `integer` column (SQLite took any number). */
const MIN_ORDER = -2_147_483_648;
const MAX_ORDER = 2_147_483_647;

/**
 * gray-matter runs a `---js` (or `---javascript`) front-matter block with eval by default: anyone able to
 * write a content file would run code wherever it is imported (the staff tool, the server's first start).
 * Only YAML (the default) and JSON front matter are read; any other language is refused.
 */
const refuseCode = (): object => {
  throw new ContentError(
    'front matter must be YAML (or JSON); JavaScript front matter is never run.',
  );
};
/**
 * YAML aliases may name at most this many nodes in all. An alias repeats what its anchor holds, and anchors of
 * aliases nest, so a 4 KB front matter can stand for billions of values ("billion laughs"): gray-matter's own YAML
 * reader shares them, and every walk over the values then took minutes (an import, or the server's first start
 * with such a seed, was stuck for ever). Real front matter uses none.
 */
const MAX_YAML_ALIASES = 100;

/**
 * YAML read strictly: what the `yaml` package only warns of (an unknown tag such as `!foo`, whose value was taken as
 * plain text while Node printed a raw multi-line warning quoting the file on stderr: found by the twenty-fourth
 * session's fault probe) is refused like an error, in one line. Aliases past {@link MAX_YAML_ALIASES} are refused.
 */
function parseYaml(source: string): unknown {
  const document = parseDocument(source, { logLevel: 'silent' });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem !== undefined) throw new Error(problem.message);
  return document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
}

/** gray-matter's YAML engine, replaced by `yaml`, which refuses front matter past {@link MAX_YAML_ALIASES}. */
function readYaml(source: string): object {
  try {
    return (parseYaml(source) as object | null) ?? {};
  } catch (error) {
    if (error instanceof Error && /alias count/i.test(error.message)) {
      throw new Error(
        `front matter repeats values through YAML aliases (*name) past ${MAX_YAML_ALIASES} in all: write them out.`,
        { cause: error },
      );
    }
    throw error;
  }
}

const FRONT_MATTER = { engines: { yaml: readYaml, javascript: refuseCode, js: refuseCode } };

/**
 * A front matter's opening line, as gray-matter reads it (`----` opens none): `---`, then the language, if any
 * (`---json`). In a text with `\n` line ends and no BOM.
 */
const FRONT_MATTER_OPENING = /^---(?!-)([^\n]*)(?:\n|$)/;

/** The languages a front matter may name: YAML (also with none, the default) and JSON, in any case. */
const FRONT_MATTER_LANGUAGES = new Map([
  ['', ''],
  ['yaml', 'yaml'],
  ['yml', 'yaml'],
  ['json', 'json'],
]);

/**
 * The text with its front matter's language checked and written as gray-matter's engines are named: gray-matter
 * looks any other word up in a plain object of engines, so `---toString`, `---valueOf` or `---constructor` ran one
 * of Object.prototype's functions as the parser (the file then refused as having no title, which it had), and
 * `---__proto__`, `---coffee` or `---JSON` were refused in the library's words (`gray-matter engine "JSON" is not
 * registered`). Found by the twenty-eighth session's staff-tool probe.
 */
function checkedLanguage(text: string): string {
  const opening = FRONT_MATTER_OPENING.exec(text.replace(/^\ufeff/, ''));
  if (opening === null) return text;
  const given = (opening[1] ?? '').trim();
  const language = given.toLowerCase();
  if (language === 'js' || language === 'javascript') refuseCode();
  const engine = FRONT_MATTER_LANGUAGES.get(language);
  if (engine === undefined) {
    throw new ContentError(
      `front matter must be YAML (opened by --- alone on its line) or JSON (opened by ---json); "${shownText(given.slice(0, 40))}" front matter is not read.`,
    );
  }
  return text.replace(/^(\ufeff?)---[^\n]*/, (_line, bom: string) => `${bom}---${engine}`);
}

function frontMatter(source: string, where: string): matter.GrayMatterFile<string> {
  let parsed: matter.GrayMatterFile<string>;
  try {
    // Line ends as any editor writes them: a file saved with Windows line ends (CRLF) kept a `\r` on its front
    // matter's last value (`order: 1` read as the text "1\r"), failing the import.
    parsed = matter(checkedLanguage(source.replace(/\r\n?/g, '\n')), FRONT_MATTER);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ContentError(`${where}: ${message.split('\n')[0]}`);
  }
  refuseUnstorableText(parsed.data, `${where}: front matter`);
  return parsed;
}

/** A NUL character, or a UTF-16 surrogate not in a pair. */
const UNSTORABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Refuses parsed YAML or JSON holding text no database column can take as it is: a NUL character
 * (PostgreSQL refuses it, failing the import with its own message; SQLite stored it) or a lone surrogate
 * (`"\ud800"`, not a character, so no UTF-8 text can hold it). Both come from escapes (`"\0"`, `"\x00"`,
 * `"\ud800"`): the file itself is strict UTF-8. Keys and values at any depth, walked without recursion.
 */
function refuseUnstorableText(data: unknown, where: string): void {
  const pending: unknown[] = [data];
  // Each object once: values YAML aliases share are looked at once, not once for every way to reach them.
  const seen = new Set<object>();
  while (pending.length > 0) {
    const value = pending.pop();
    if (value !== null && typeof value === 'object') {
      if (seen.has(value)) continue;
      seen.add(value);
    }
    if (typeof value === 'string') {
      if (UNSTORABLE.test(value)) {
        throw new ContentError(
          `${where} contains a NUL character or a lone surrogate (a \\0, \\x00 or \\uD800 to \\uDFFF escape).`,
        );
      }
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) pending.push(key, item);
    }
  }
}

/** The largest text file (Markdown, client.yml) and media file an import reads. */
export const MAX_TEXT_FILE_BYTES = 1024 * 1024;
export const MAX_MEDIA_FILE_BYTES = 256 * 1024 * 1024;

/** Strict: bytes that are not UTF-8 are an error, not U+FFFD (a leading BOM is dropped). */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A content folder as the import reads it: only regular files that really are inside it. A symbolic link (to a
 * file, or a `media` or `topics` folder that is one) leading out of the folder is refused: it would publish
 * whatever it points at (`DATA_DIR/session-secret`, say) under `/media/`, which needs no login. So are FIFOs,
 * devices and folders named like a file (an import would wait on a FIFO for ever), and files past a size.
 */
class ContentFolder {
  private constructor(readonly root: string) {}

  /** The folder by its real path (a link to a folder as a whole is fine: what counts is what is inside). */
  static async open(folder: string): Promise<ContentFolder> {
    const given = path.resolve(folder);
    let root: string;
    try {
      root = await realpath(given);
    } catch {
      throw new ContentError(`The content folder ${given} does not exist.`);
    }
    if (!(await stat(root)).isDirectory()) {
      throw new ContentError(
        `${given} is a file, not a content folder: give the folder that holds client.yml.`,
      );
    }
    return new ContentFolder(root);
  }

  /** The real path of `file` (inside the folder), checked to be a regular file inside it within `maxBytes`. */
  async check(file: string, where: string, maxBytes: number): Promise<string> {
    let real: string;
    try {
      real = await realpath(file);
    } catch (error) {
      // A link that leads back to itself was said not to exist, though the folder lists it (twenty-ninth
      // session's probe).
      const code = (error as { code?: unknown }).code;
      throw new ContentError(
        code === 'ELOOP'
          ? `${where}: it is a symbolic link that leads round in a loop, never to a file.`
          : `${where}: the file does not exist.`,
      );
    }
    if (!real.startsWith(this.root + path.sep)) {
      throw new ContentError(`${where}: it links outside the content folder.`);
    }
    const info = await stat(real);
    if (!info.isFile()) throw new ContentError(`${where}: it is not a regular file.`);
    if (info.size > maxBytes) {
      throw new ContentError(
        `${where}: the file is ${info.size} bytes; at most ${maxBytes} are read.`,
      );
    }
    return real;
  }

  /** A text file inside the folder, read as strict UTF-8. */
  async readText(file: string, where: string): Promise<string> {
    const bytes = await readFile(await this.check(file, where, MAX_TEXT_FILE_BYTES));
    try {
      return utf8.decode(bytes);
    } catch {
      throw new ContentError(`${where}: the file is not UTF-8 text.`);
    }
  }
}

/** Parses client.yml; a YAML error names the file and its first line, never a stack or a multi-line dump. */
function parseClientYaml(source: string): Record<string, unknown> {
  let data: unknown;
  try {
    data = parseYaml(source);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ContentError(`client.yml: ${message.split('\n')[0]}`);
  }
  if (data === null || data === undefined) return {};
  if (typeof data !== 'object' || Array.isArray(data)) {
    throw new ContentError('client.yml: it must be a mapping of settings (prefix: …, name: …).');
  }
  refuseUnstorableText(data, 'client.yml');
  return data as Record<string, unknown>;
}

/** One document to parse fragments in (a new JSDOM per file is slow). */
const scratch = new JSDOM('').window.document;

async function hashOf(file: string): Promise<string> {
  return createHash('sha256')
    .update(await readFile(file))
    .digest('hex');
}

/**
 * Marks the temporary files this process copies media through (`<name>.tmp-<host>-<pid>-<n>`, n counting the
 * copies, so two imports in one process never share one), so a later import can tell one left by a killed
 * import (on this host, its process is gone) from one still being written.
 */
let copies = 0;
const tempName = (target: string) => `${target}.tmp-${HOST_MARK}-${process.pid}-${++copies}`;
/** The temporary names above, and `.tmp-<pid>` as earlier versions named them. */
const TEMP_NAME = /\.tmp-(?:([A-Za-z0-9_]+)-)?(\d+)(?:-\d+)?$/;
/** A temporary media file untouched this long is left over whatever host wrote it (the media folder may be shared). */
const STALE_TEMP_MS = 60 * 60_000;

/**
 * Deletes temporary files a killed import left in a media folder (a copy cut off half-way; never served, since
 * only content-hash names are, but up to 256 MB each): those whose process on this host is gone, and any
 * untouched for an hour. A copy in progress in another process is left alone.
 */
async function removeStaleTemps(dir: string, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const match = TEMP_NAME.exec(name);
    if (match === null) continue;
    const [, host, pid] = match;
    const file = path.join(dir, name);
    if (!(host === HOST_MARK && processGone(Number(pid)))) {
      const info = await stat(file).catch(() => undefined);
      if (info === undefined || now - info.mtimeMs < STALE_TEMP_MS) continue;
    }
    await unlink(file).catch(() => undefined);
  }
}

/** Removes media files an import created (by {@link publishImportMedia}), when its rows are not written. */
export async function unpublishMedia(files: string[]): Promise<void> {
  for (const file of files) await unlink(file).catch(() => undefined);
}

/**
 * Publishes media files into DATA_DIR/media/<prefix>/ under content-hash names (safe to cache for ever). Files
 * are only planned while the folder is checked, and copied by `copyPlanned` once everything has passed: an
 * import that fails publishes nothing.
 */
class MediaCopier {
  private readonly publishedName: RegExp;
  /** Published name → the real source path and the hash it had when checked. */
  private readonly planned = new Map<string, { source: string; hash: string }>();

  constructor(
    private readonly folder: ContentFolder,
    private readonly mediaDir: string,
    private readonly prefix: string,
  ) {
    this.publishedName = new RegExp(`^/media/${prefix}/${MEDIA_NAME}$`);
  }

  /**
   * `media/x.svg` (relative to the content folder) → `/media/<prefix>/<hash>.svg`. `kind`, when given, is the
   * only kind of media the place takes (a video's `src` a video, its poster an image…): an SVG as the video left
   * the dashboard a player that cannot play.
   */
  async publish(reference: string, where: string, kind?: MediaKind): Promise<string> {
    const checkKind = () => {
      if (kind !== undefined && !MEDIA_KINDS[kind].test(mediaContentType(reference) ?? '')) {
        throw new ContentError(`${where}: "${reference}" must be ${MEDIA_KIND_NAMES[kind]}.`);
      }
    };
    // Already published (this client's own media, by content-hash name): kept as it is. Any other /media/
    // path (`/media/../api/…` would make every viewer's browser call the API) is refused below.
    if (this.publishedName.test(reference)) {
      checkKind();
      // A name of the published form for no published file showed a broken image (found by the twenty-third
      // session's staff-tool probe).
      if (!existsSync(path.join(this.mediaDir, this.prefix, path.basename(reference)))) {
        throw new ContentError(
          `${where}: "${reference}" is not a file this client has published: name the file in the content folder (e.g. media/photo.jpg).`,
        );
      }
      return reference;
    }
    if (/^[a-z][a-z0-9+.-]*:/i.test(reference) || reference.startsWith('/')) {
      throw new ContentError(
        `${where}: "${reference}" must be a file in the content folder (e.g. media/photo.jpg).`,
      );
    }
    const named = path.resolve(this.folder.root, reference);
    if (!named.startsWith(this.folder.root + path.sep)) {
      throw new ContentError(`${where}: "${reference}" points outside the content folder.`);
    }
    const type = mediaContentType(named);
    if (type === undefined) {
      throw new ContentError(
        `${where}: "${reference}" is not an allowed media type (${MEDIA_EXTENSIONS.join(', ')}).`,
      );
    }
    checkKind();
    // A symbolic link is judged by `check`, which names one that loops (thirtieth session: existsSync follows it).
    if (!existsSync(named) && (await lstat(named).catch(() => undefined)) === undefined) {
      throw new ContentError(`${where}: the file "${reference}" does not exist.`);
    }
    const source = await this.folder.check(named, `${where}: "${reference}"`, MAX_MEDIA_FILE_BYTES);
    const bytes = await readFile(source);
    // Judged by its bytes too, not by its name alone (found by the twenty-third session's staff-tool probe: an
    // HTML page named .png, random bytes named .webm and an empty .gif were all published as media).
    if (!holdsMediaOfType(bytes, type)) {
      throw new ContentError(
        `${where}: "${reference}" does not hold ${type} (${path.extname(named).toLowerCase()}): check the file, or give it the extension of what it is.`,
      );
    }
    const hash = createHash('sha256').update(bytes).digest('hex');
    // The name's extension is the reference's (what the type was judged by), whatever the link points at.
    const name = `${hash.slice(0, 20)}${path.extname(named).toLowerCase()}`;
    this.planned.set(name, { source, hash });
    return `/media/${this.prefix}/${name}`;
  }

  /**
   * Copies the planned files not yet published (each through a temporary file, checked to still hold what was
   * checked), and answers the ones it created, for `unpublishMedia` should the import fail after all. Temporary files
   * a killed import left in the folder are deleted first, and the current one whenever a copy fails. Each copy is
   * fsync-ed before its rename and the folder after the renames, so once this resolves (before the rows that point
   * at the files are committed) a power loss cannot leave a row pointing at an empty or missing file.
   */
  async copyPlanned(): Promise<string[]> {
    const targetDir = path.join(this.mediaDir, this.prefix);
    await removeStaleTemps(targetDir);
    // A media folder made now is an entry of its parent, which must be durable too.
    const newFolder = !existsSync(targetDir);
    const created: string[] = [];
    let tmp: string | undefined;
    try {
      for (const [name, { source, hash }] of this.planned) {
        const target = path.join(targetDir, name);
        if (existsSync(target)) {
          // Already there: touched, so a sweep of unused media (another import of this client finishing now)
          // sees it as just written and leaves it. Copied again only if it went meanwhile.
          const touched = await utimes(target, new Date(), new Date()).then(
            () => true,
            (error: NodeJS.ErrnoException) => error.code !== 'ENOENT',
          );
          if (touched) continue;
        }
        await mkdir(targetDir, { recursive: true });
        tmp = tempName(target);
        await copyFile(source, tmp);
        // copyFile gives the copy the source's mode whatever the umask (found by the eighteenth session's fault
        // probe: imported media were readable by every local user); the data folder's files are its owner's.
        await chmod(tmp, 0o600);
        if ((await hashOf(tmp)) !== hash) {
          throw new ContentError(
            `${path.relative(this.folder.root, source)}: the file changed during the import.`,
          );
        }
        await fsyncPath(tmp);
        await rename(tmp, target);
        tmp = undefined;
        created.push(target);
      }
      if (created.length > 0) {
        await fsyncPath(targetDir);
        if (newFolder) await fsyncPath(this.mediaDir);
      }
    } catch (error) {
      if (tmp !== undefined) await unlink(tmp).catch(() => undefined);
      await unpublishMedia(created);
      throw error;
    }
    return created;
  }

  /**
   * Rewrites relative media references inside sanitised HTML. A `/media/` path that is not one of this
   * client's own published files (another client's media, a path out of `/media/`) is dropped, as the
   * sanitiser drops what it does not allow.
   */
  async rewriteHtml(html: string, where: string): Promise<string> {
    const body = scratch.createElement('div');
    body.innerHTML = html;
    for (const element of body.querySelectorAll('[src], [href], [poster]')) {
      for (const attribute of ['src', 'href', 'poster']) {
        const value = element.getAttribute(attribute);
        if (value === null) continue;
        if (/^(\.\/)?media\//.test(value)) {
          element.setAttribute(attribute, await this.publish(value, where));
        } else if (mediaPathOfSite(value) && !this.publishedName.test(value)) {
          element.removeAttribute(attribute);
        }
      }
    }
    return body.innerHTML;
  }
}

/**
 * Whether an address, read from this site's root over http or https, is a path under `/media/` however written:
 * `/media/./<other client>/…`, `/media/x/../<other client>/…`, `https:/media/…` (a path of the site to a portal
 * served over https) or `/%6Dedia/…` all lead to `/media/<other client>/…`. Found by the thirty-first session's
 * XSS probe: only addresses written `/media/…` were checked for being the client's own.
 */
function mediaPathOfSite(value: string): boolean {
  return ['http://portal.invalid/', 'https://portal.invalid/'].some((site) => {
    let url: URL;
    try {
      url = new URL(value, site);
    } catch {
      return false;
    }
    if (url.origin !== new URL(site).origin) return false;
    let decoded = url.pathname;
    try {
      decoded = decodeURIComponent(url.pathname);
    } catch {
      // Left as written.
    }
    return /^\/media(?:\/|$)/i.test(url.pathname) || /^\/media(?:\/|$)/i.test(decoded);
  });
}

/** A character that shows (not a space, nor an invisible one such as U+200B): a text without one is blank. */
const SHOWN = new RegExp(VISIBLE_CHARACTER, 'u');

/** Where a refusal about client.yml says it is. */
const CLIENT_FILE = 'client.yml';

/**
 * How a refusal names a field: `front matter "title"` in a content file, and in client.yml, which holds no front
 * matter, `"name"` or `"branding.logo"` (found by the twenty-eighth session's staff-tool probe: `client.yml
 * branding: front matter "primary" must be text`).
 */
function fieldLabel(where: string, label: string): string {
  return where === CLIENT_FILE ? `"${label}"` : `front matter "${label}"`;
}

function text(
  data: Record<string, unknown>,
  field: string,
  where: string,
  label: string = field,
): string {
  const value = data[field];
  if (typeof value !== 'string' || !SHOWN.test(value)) {
    throw new ContentError(`${where}: ${fieldLabel(where, label)} is required (text).`);
  }
  return value.trim();
}

/**
 * The longest title and summary, in characters. Every card of the hub holds one of each, and nothing bounded them:
 * 135 summaries of a megabyte made a hub answer too large to build (found by the twenty-third session's staff-tool
 * probe). Real ones are a line and a paragraph.
 */
export const MAX_TITLE_CHARACTERS = 300;
export const MAX_SUMMARY_CHARACTERS = 2_000;

/** Control characters (C0 but tab and line breaks, DEL, C1), and for a title line breaks too. */
const CONTROL = new RegExp(`[${CONTROL_CHARACTER}]`, 'u');
const NOT_IN_A_TITLE = new RegExp(`[${CONTROL_CHARACTER}${LINE_BREAK}\\t]`, 'u');

/**
 * A title is one line (a heading, a card's title, the browser's tab), and no shown text holds control characters
 * (they show nothing, or a box, and a BEL or ESC reaches the staff tool's terminal when it prints a title).
 */
function shownTextOnly(value: string, field: 'title' | 'summary', where: string): string {
  const most = field === 'title' ? MAX_TITLE_CHARACTERS : MAX_SUMMARY_CHARACTERS;
  const length = [...value].length;
  if (length > most) {
    throw new ContentError(
      `${where}: front matter "${field}" is ${length.toLocaleString('en-GB')} characters long; at most ${most.toLocaleString('en-GB')} are taken.`,
    );
  }
  if ((field === 'title' ? NOT_IN_A_TITLE : CONTROL).test(value)) {
    throw new ContentError(
      field === 'title'
        ? `${where}: front matter "title" must be one line of text, without line breaks, tabs or control characters.`
        : `${where}: front matter "${field}" must not hold control characters.`,
    );
  }
  return value;
}

/** The invisible format controls that reorder or hide text (bidi overrides, embeddings, isolates, marks). */
const TEXT_DIRECTION_CONTROL = new RegExp(`[${FORMAT_CONTROL}]`, 'u');

/**
 * A title or summary: text without the invisible controls that reorder what follows them. A title with a bidi
 * override (U+202E) showed reversed on its card, its page, the search results and in the browser's tab, and a
 * summary on its card ("Trojan Source" spoofing); right-to-left letters need none of them.
 */
function withoutDirectionControls(
  value: string,
  field: 'title' | 'summary',
  where: string,
): string {
  if (TEXT_DIRECTION_CONTROL.test(value)) {
    throw new ContentError(
      `${where}: front matter "${field}" must not hold invisible text-direction marks or format controls (U+202E and the like).`,
    );
  }
  return shownTextOnly(value, field, where);
}

function optionalText(
  data: Record<string, unknown>,
  field: string,
  where: string,
  label: string = field,
): string | undefined {
  const value = data[field];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') {
    throw new ContentError(`${where}: ${fieldLabel(where, label)} must be text.`);
  }
  return value.trim();
}

/**
 * How deep sanitised content HTML may nest. Parsing HTML in jsdom takes time that grows with the square of the
 * nesting: 10,000 nested `<div>`s (50 KB) kept the server busy for 12 s each time it sanitised the item on the way
 * out, every other request waiting. Real content (lists in lists, quotes, tables) stays far below this.
 */
const MAX_HTML_DEPTH = 100;

/** The deepest nesting of elements under `root` (its children are at depth 1), walked without recursion. */
function elementDepth(root: Element): number {
  let deepest = 0;
  const stack: [Element, number][] = [[root, 0]];
  for (let entry = stack.pop(); entry !== undefined; entry = stack.pop()) {
    const [element, depth] = entry;
    deepest = Math.max(deepest, depth);
    for (const child of element.children) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * Elements the count below leaves out: void ones, and those the parser closes by itself (`<p>a<p>b`, `<li>`…),
 * which a plain count of start tags would take for nesting.
 */
const NOT_NESTING = new Set(
  (
    'area base br col embed hr img input link meta source track wbr ' +
    'p li dt dd option optgroup tr td th thead tbody tfoot rb rt rp colgroup caption'
  ).split(' '),
);
const TAG = /<(\/?)([a-z][a-z0-9-]*)\b[^>]*?(\/?)>/gi;

/**
 * Whether HTML text may nest deeper than `limit`, by counting start and end tags: cheap, and never below the
 * real depth of what the count takes in (a stray end tag lowers the count). It spares the sanitiser, whose
 * parse takes time that grows with the square of the depth (10,000 levels: 12 s), input it would refuse anyway.
 */
export function mayNestDeeperThan(html: string, limit: number): boolean {
  let depth = 0;
  for (const [, close, name = '', selfClosing] of html.matchAll(TAG)) {
    if (NOT_NESTING.has(name.toLowerCase())) continue;
    if (close === '/') depth = Math.max(0, depth - 1);
    else if (selfClosing !== '/' && ++depth > limit) return true;
  }
  return false;
}

/**
 * The most Markdown one item (a body, a pro tip, the video's description) may hold. Real articles are a few
 * kilobytes; sanitising takes time that grows with the size (a 1.6 MB table: 10 s of a blocked server the first
 * time an instance sends it).
 */
export const MAX_MARKDOWN_BYTES = 256 * 1024;
/**
 * The most the hub's answer may hold, in characters: every card's title and summary, every topic and the video's
 * description go out in it, on every dashboard load.
 */
export const MAX_HUB_CHARACTERS = 4 * 1024 * 1024;
/** The most HTML one item's Markdown may make (tables and lists make two or three times their Markdown). */
export const MAX_HTML_CHARACTERS = 1024 * 1024;

const tooDeep = (where: string) =>
  `${where}: the HTML is nested more than ${MAX_HTML_DEPTH} elements deep.`;

/**
 * Markdown (raw HTML allowed) → sanitised HTML, refused when it is too long, cannot be read or nests too
 * deeply.
 */
function markdownToHtml(markdown: string, where: string): string {
  const bytes = Buffer.byteLength(markdown);
  if (bytes > MAX_MARKDOWN_BYTES) {
    throw new ContentError(
      `${where}: the text is ${Math.ceil(bytes / 1024)} KB; at most ${MAX_MARKDOWN_BYTES / 1024} KB is taken.`,
    );
  }
  let html: string;
  try {
    const raw = marked.parse(markdown, { async: false, gfm: true });
    // Reference links repeat their address at every use: 162 KB of them made 81 MB of HTML, which took two
    // minutes and 1.5 GB to sanitise, and then went out in every hub answer (found by the twenty-third session's
    // staff-tool probe).
    if (raw.length > MAX_HTML_CHARACTERS) {
      throw new ContentError(
        `${where}: the Markdown makes ${Math.ceil(raw.length / 1024).toLocaleString('en-GB')} KB of HTML; at most ${MAX_HTML_CHARACTERS / 1024} KB is taken.`,
      );
    }
    // Well past the limit before sanitising: refused without the slow parse (the check below decides the rest).
    if (mayNestDeeperThan(raw, MAX_HTML_DEPTH * 5)) throw new ContentError(tooDeep(where));
    html = sanitizeHtml(raw);
  } catch (error) {
    // marked recurses per level of block nesting: 5,000 `>` overflow the stack.
    if (!(error instanceof RangeError)) throw error;
    throw new ContentError(`${where}: the Markdown could not be read (is it nested too deeply?).`);
  }
  const body = scratch.createElement('div');
  body.innerHTML = html;
  if (elementDepth(body) > MAX_HTML_DEPTH) throw new ContentError(tooDeep(where));
  return html;
}

/** Plain text of sanitised HTML, for search. */
function plainText(html: string): string {
  const div = scratch.createElement('div');
  div.innerHTML = html;
  return (div.textContent ?? '').replace(/\s+/g, ' ').trim();
}

/**
 * The Markdown files of a content folder, sorted. A file whose extension is `.md` in another case (`x.MD`, made
 * by some editors and file systems) is refused, naming it, rather than skipped: it would silently not be
 * published. Other files (notes, images) are left alone.
 */
async function listMarkdown(folder: string, where: string): Promise<string[]> {
  if (!existsSync(folder)) return [];
  // Found by the twenty-fourth session's fault probe: a file here ended the import with "Failed: ENOTDIR".
  if (!(await stat(folder)).isDirectory()) {
    throw new ContentError(
      `${where} is a file: it must be a folder of Markdown files (or not be there at all).`,
    );
  }
  const names = await readdir(folder);
  const miscased = names.find((f) => f.toLowerCase().endsWith('.md') && !f.endsWith('.md'));
  if (miscased !== undefined) {
    throw new ContentError(
      `${where}/${miscased}: a Markdown file's name must end in ".md" in lower case.`,
    );
  }
  return names.filter((f) => f.endsWith('.md')).sort();
}

export interface ClientFile {
  client: NewClient;
  /** The logo as referenced in client.yml (published on import). */
  logo: string | undefined;
  /** Keys client.yml has that are no setting (`bogus`, `branding.primay`): ignored, and noted by an import. */
  unknown: string[];
}

const CLIENT_KEYS = ['prefix', 'name', 'login', 'branding'];
const BRANDING_KEYS = ['primary', 'accent', 'logo'];

/** Reads and checks `client.yml` of a content folder. */
export async function readClientFile(folder: string): Promise<ClientFile> {
  const root = await ContentFolder.open(folder);
  const file = path.join(root.root, 'client.yml');
  if (!existsSync(file))
    throw new ContentError(`${path.join(folder, 'client.yml')} does not exist.`);
  const data = parseClientYaml(await root.readText(file, 'client.yml'));
  const where = CLIENT_FILE;
  const prefix = text(data, 'prefix', where);
  const problem = prefixProblem(prefix);
  if (problem !== undefined) throw new ContentError(`${where}: ${problem}`);
  const login = optionalText(data, 'login', where) ?? 'magic-link';
  if (login !== 'open' && login !== 'magic-link') {
    throw new ContentError(`${where}: "login" must be open or magic-link.`);
  }
  // `branding: media/logo.svg` (the logo's path where the mapping goes) was read as no branding at all: the import
  // said the file named no logo (found by the twenty-eighth session's staff-tool probe).
  if (
    data.branding !== undefined &&
    data.branding !== null &&
    (typeof data.branding !== 'object' || Array.isArray(data.branding))
  ) {
    throw new ContentError(
      `${where}: "branding" must hold its settings (primary, accent, logo), each on a line of its own under it, such as "  logo: media/logo.svg".`,
    );
  }
  const brandingData = (data.branding ?? {}) as Record<string, unknown>;
  const branding: Partial<Branding> = {};
  for (const key of ['primary', 'accent'] as const) {
    const value = optionalText(brandingData, key, where, `branding.${key}`);
    if (value !== undefined) {
      if (!isHexColour(value)) {
        throw new ContentError(`${where}: branding.${key} must be a colour like #1f3a5f.`);
      }
      branding[key] = value;
    }
  }
  return {
    client: {
      prefix,
      name: text(data, 'name', where),
      loginPolicy: login as LoginPolicy,
      branding,
    },
    logo: optionalText(brandingData, 'logo', where, 'branding.logo'),
    unknown: [
      ...Object.keys(data).filter((key) => !CLIENT_KEYS.includes(key)),
      ...(typeof data.branding === 'object' && data.branding !== null
        ? Object.keys(brandingData)
            .filter((key) => !BRANDING_KEYS.includes(key))
            .map((key) => `branding.${key}`)
        : []),
    ],
  };
}

export interface ImportSummary {
  case_study: number;
  insight: number;
  topic: number;
  video: boolean;
  logo_url: string | null;
  /** What the client had and the folder no longer has, removed by the import. */
  removed: { case_study: number; insight: number; topic: number; video: boolean };
}

export interface ImportOptions {
  /**
   * Let a folder with no case studies, insights or topics remove all the client's items (the staff tool's
   * `--allow-empty`). Without it such an import is refused: the usual cause is a wrong or emptied folder.
   */
  allowEmpty?: boolean;
}

/** What {@link importContent} answers: the summary, and the sweep of unused media after it. */
export interface ImportResult extends ImportSummary {
  /** Media files of the client deleted after the import because nothing names them (see sweepUnusedMedia). */
  media_removed: string[];
  /** Set when the import was committed but its media could not be checked afterwards. */
  media_problem: string | null;
  /** What was imported but will not show as written (see {@link PreparedImport.notes}). */
  notes: readonly string[];
}

/**
 * A content folder read and checked, ready to be written: the items, the video and the logo, and the media they
 * need (not copied yet). Made by {@link prepareImport}; published by {@link publishImportMedia} and written by
 * {@link writeImport}.
 */
export interface PreparedImport {
  readonly items: readonly ContentItemInput[];
  readonly video: Video | undefined;
  readonly logoUrl: string | null;
  /** The media the rows name, planned (copied by {@link publishImportMedia}). */
  readonly media: { copyPlanned(): Promise<string[]> };
  /** What was imported but will not show as written (a related slug of no article), for the staff tool to print. */
  readonly notes: readonly string[];
}

/** The client an import is prepared for: its id is not needed, so a client not created yet can be one. */
type ImportTarget = Pick<Client, 'prefix' | 'name' | 'loginPolicy'> & {
  branding: Partial<Branding> & Pick<Branding, 'logo_url'>;
};

/**
 * Reads and checks a content folder for a client (its prefix, details and current logo are needed, not its id, so
 * a client not created yet can be prepared for). Nothing is written: a problem throws a {@link ContentError}.
 */
export async function prepareImport(
  client: ImportTarget,
  folder: string,
  mediaDir: string,
): Promise<PreparedImport> {
  const contentFolder = await ContentFolder.open(folder);
  const root = contentFolder.root;
  const media = new MediaCopier(contentFolder, mediaDir, client.prefix);
  const items: ContentItemInput[] = [];

  for (const { folder: sub, type } of FOLDERS) {
    const files = await listMarkdown(path.join(root, sub), sub);
    for (const [index, file] of files.entries()) {
      const where = `${sub}/${file}`;
      const slug = file.slice(0, -3);
      if (!SLUG.test(slug)) {
        throw new ContentError(
          `${where}: the file name must be a slug (lower-case letters, digits, hyphens).`,
        );
      }
      const parsed = frontMatter(
        await contentFolder.readText(path.join(root, sub, file), where),
        where,
      );
      const data = parsed.data as Record<string, unknown>;
      const html = await media.rewriteHtml(markdownToHtml(parsed.content, where), where);
      const order = data.order;
      if (
        order !== undefined &&
        (typeof order !== 'number' ||
          !Number.isInteger(order) ||
          order < MIN_ORDER ||
          order > MAX_ORDER)
      ) {
        throw new ContentError(
          `${where}: front matter "order" must be a whole number from ${MIN_ORDER} to ${MAX_ORDER}.`,
        );
      }
      const related = data.related ?? [];
      if (!Array.isArray(related) || related.some((r) => typeof r !== 'string' || !SLUG.test(r))) {
        throw new ContentError(`${where}: front matter "related" must be a list of slugs.`);
      }
      if (related.length > MAX_RELATED) {
        throw new ContentError(
          `${where}: front matter "related" may list at most ${MAX_RELATED} slugs.`,
        );
      }
      // Listed twice, the item showed twice among the related (found by the twenty-third session's probe).
      const twice = (related as string[]).find((slug, at) => related.indexOf(slug) !== at);
      if (twice !== undefined) {
        throw new ContentError(`${where}: front matter "related" names "${twice}" twice.`);
      }
      const image = optionalText(data, 'image', where);
      const proTip = type === 'topic' ? optionalText(data, 'pro_tip', where) : undefined;
      const proTipHtml =
        proTip === undefined
          ? null
          : await media.rewriteHtml(markdownToHtml(proTip, `${where} pro_tip`), where);
      items.push({
        type,
        slug,
        title: withoutDirectionControls(text(data, 'title', where), 'title', where),
        summary: withoutDirectionControls(
          type === 'topic'
            ? (optionalText(data, 'summary', where) ?? '')
            : text(data, 'summary', where),
          'summary',
          where,
        ),
        bodyText: [plainText(html), proTipHtml === null ? '' : plainText(proTipHtml)]
          .join(' ')
          .trim(),
        html,
        imageUrl: image === undefined ? null : await media.publish(image, where, 'image'),
        proTip: proTipHtml,
        sortOrder: typeof order === 'number' ? order : index + 1,
        related: related as string[],
      });
    }
  }

  const notes = [...relatedNotes(items)];

  let video: Video | undefined;
  const videoFile = path.join(root, 'video.md');
  if (existsSync(videoFile)) {
    const where = 'video.md';
    const parsed = frontMatter(await contentFolder.readText(videoFile, where), where);
    const data = parsed.data as Record<string, unknown>;
    const poster = optionalText(data, 'poster', where);
    const captions = optionalText(data, 'captions', where);
    video = {
      title: withoutDirectionControls(text(data, 'title', where), 'title', where),
      src: await media.publish(text(data, 'src', where), where, 'video'),
      poster: poster === undefined ? null : await media.publish(poster, where, 'image'),
      captions: captions === undefined ? null : await media.publish(captions, where, 'captions'),
      description: await media.rewriteHtml(markdownToHtml(parsed.content, where), where),
    };
  }

  const hubCharacters =
    items.reduce(
      (sum, item) =>
        sum +
        item.title.length +
        item.summary.length +
        (item.type === 'topic' ? item.html.length + (item.proTip?.length ?? 0) : 0),
      0,
    ) + (video === undefined ? 0 : video.title.length + video.description.length);
  if (hubCharacters > MAX_HUB_CHARACTERS) {
    throw new ContentError(
      `The hub's content (every card's title and summary, the topics and the video's description) comes to ${Math.ceil(hubCharacters / 1024).toLocaleString('en-GB')} K characters; at most ${(MAX_HUB_CHARACTERS / 1024).toLocaleString('en-GB')} K are taken. Shorten or remove some of it.`,
    );
  }

  let logoUrl: string | null = client.branding.logo_url;
  if (existsSync(path.join(root, 'client.yml'))) {
    const { client: named, logo, unknown } = await readClientFile(root);
    // Found by the twenty-third session's staff-tool probe: `content import --client demo content/northbank`
    // replaced demo's content with northbank's, logo and all, on a client anyone may log in to.
    if (named.prefix !== client.prefix) {
      throw new ContentError(
        `client.yml: this folder is the content of "${named.prefix}", not of "${client.prefix}": import it with --client ${named.prefix}, or check the folder.`,
      );
    }
    if (logo !== undefined) logoUrl = await media.publish(logo, 'client.yml', 'image');
    notes.push(...clientFileNotes(client, named, logo));
    // Found by the twenty-fourth session's second fault probe: a mistyped or misplaced key went without a word.
    for (const key of unknown) {
      notes.push(
        `client.yml: ${JSON.stringify(key)} is no setting, and is ignored (the settings are prefix, name, login, and branding with primary, accent and logo).`,
      );
    }
  }

  return { items, video, logoUrl, media, notes };
}

/**
 * What a `client.yml` says that an import does not do: an import takes only its logo, and the staff tool said
 * nothing of a name, login policy or colour that differs from the client's, nor of a logo it no longer names
 * (noted by the twenty-third session's staff-tool probe). Each note says how to make the change.
 */
function clientFileNotes(
  client: ImportTarget,
  named: NewClient,
  logo: string | undefined,
): string[] {
  const notes: string[] = [];
  const update = `pnpm admin client update --prefix ${client.prefix}`;
  const differs = (what: string, given: string, current: string, option: string) =>
    notes.push(
      `client.yml gives the ${what} ${JSON.stringify(given)}, but ${client.prefix}'s is ${JSON.stringify(current)}: ` +
        `an import takes only the logo from client.yml. To change it: ${update} --${option} ${JSON.stringify(given)}`,
    );
  if (named.name !== client.name) differs('name', named.name, client.name, 'name');
  if (named.loginPolicy !== client.loginPolicy) {
    differs('login policy', named.loginPolicy, client.loginPolicy, 'login');
  }
  for (const key of ['primary', 'accent'] as const) {
    const given = named.branding?.[key];
    const current = client.branding[key];
    if (
      given !== undefined &&
      current !== undefined &&
      given.toLowerCase() !== current.toLowerCase()
    ) {
      differs(`${key} colour`, given, current, key);
    }
  }
  if (logo === undefined && client.branding.logo_url !== null) {
    notes.push(
      `client.yml names no logo, so ${client.prefix} keeps the one it has. To remove it: ${update} --remove-logo`,
    );
  }
  return notes;
}

const FOLDER_OF: Record<ContentType, string> = Object.fromEntries(
  FOLDERS.map(({ folder, type }) => [type, folder]),
) as Record<ContentType, string>;

/**
 * `related` names other articles (case studies or insights), as the article page looks them up. The item itself is
 * refused. A slug of no article in the folder (a typo, a topic, an article since removed) is imported, so that
 * removing an article does not mean editing every list that names it first, and it comes back as a note the staff
 * tool prints: the article page lists only the articles there are. So does a slug that is both a case study and an
 * insight: the article page lists the one of the article's own type, which the author may not have meant.
 */
function relatedNotes(items: readonly ContentItemInput[]): string[] {
  const slugsOf = (type: ContentType) =>
    new Set(items.filter((item) => item.type === type).map((item) => item.slug));
  const caseStudies = slugsOf('case_study');
  const insights = slugsOf('insight');
  const articles = new Set([...caseStudies, ...insights]);
  const notes: string[] = [];
  for (const item of items) {
    const where = `${FOLDER_OF[item.type]}/${item.slug}.md`;
    for (const slug of item.related) {
      if (slug === item.slug) {
        throw new ContentError(
          `${where}: front matter "related" names the item itself ("${slug}").`,
        );
      }
      if (!articles.has(slug)) {
        notes.push(
          `${where}: "related" names "${slug}", which is not a file in case-studies/ or insights/: the article does not list it.`,
        );
      } else if (caseStudies.has(slug) && insights.has(slug)) {
        // A slug is an item's id within its type only; the article page takes the one of its own type.
        const own = item.type === 'case_study' ? 'case study' : 'insight';
        notes.push(
          `${where}: "related" names "${slug}", which is both a case study and an insight: the article lists the ${own}.`,
        );
      }
    }
  }
  return notes;
}

/**
 * Copies the media a prepared import needs into DATA_DIR/media (before any row points at them), and answers
 * the files it created, for {@link unpublishMedia} should the rows not be written after all.
 */
export function publishImportMedia(prepared: PreparedImport): Promise<string[]> {
  return prepared.media.copyPlanned();
}

/**
 * Writes a prepared import's rows for `client` in the caller's transaction, so the client's published content
 * matches the folder: items are upserted by type and slug, and items (and the video) the folder no longer has
 * are removed. Bumps the client's content version, so an answer is made either wholly before or wholly after the
 * import. A folder with no items at all while the client has some is refused unless `allowEmpty`. Answers the
 * import's summary.
 */
export async function writeImport(
  trx: Transaction<Database>,
  client: Client,
  prepared: PreparedImport,
  now: Date,
  options: ImportOptions = {},
): Promise<ImportSummary> {
  const { items, video, logoUrl } = prepared;
  // First, so two imports of one client take turns (the row stays locked until commit on PostgreSQL; SQLite takes
  // its write lock): what one removes is judged against the rows as the other committed them, never a mix.
  await trx
    .updateTable('clients')
    .set((eb) => ({ content_version: eb('content_version', '+', 1) }))
    .where('id', '=', client.id)
    .execute();
  const existing = await listContentKeys(trx, client.id);
  if (items.length === 0 && existing.length > 0 && options.allowEmpty !== true) {
    throw new ContentError(
      `The folder has no case studies, insights or topics, so importing it would remove all ` +
        `${existing.length} published item${existing.length === 1 ? '' : 's'} of ${client.prefix}. ` +
        `Nothing was changed. Check the folder; ` +
        `to remove them all, import it again with --allow-empty.`,
    );
  }
  for (const item of items) await upsertContentItem(trx, client.id, item, now);
  const kept = new Set(items.map((i) => `${i.type}/${i.slug}`));
  const gone = existing.filter((row) => !kept.has(`${row.type}/${row.slug}`));
  await deleteContentItems(
    trx,
    client.id,
    gone.map((row) => row.id),
  );
  const videoRemoved = video === undefined ? await deleteVideo(trx, client.id) : false;
  if (video !== undefined) await upsertVideo(trx, client.id, video, now);
  if (logoUrl !== client.branding.logo_url) {
    // The branding as stored now, not as read before the import: a colour changed meanwhile by
    // `client update` is kept.
    const stored = await trx
      .selectFrom('clients')
      .select('branding')
      .where('id', '=', client.id)
      .executeTakeFirstOrThrow();
    const current = JSON.parse(stored.branding) as Partial<Branding>;
    await trx
      .updateTable('clients')
      .set({ branding: JSON.stringify({ ...client.branding, ...current, logo_url: logoUrl }) })
      .where('id', '=', client.id)
      .execute();
  }
  const count = (list: readonly { type: ContentType }[], type: ContentType) =>
    list.filter((i) => i.type === type).length;
  return {
    case_study: count(items, 'case_study'),
    insight: count(items, 'insight'),
    topic: count(items, 'topic'),
    video: video !== undefined,
    logo_url: logoUrl,
    removed: {
      case_study: count(gone, 'case_study'),
      insight: count(gone, 'insight'),
      topic: count(gone, 'topic'),
      video: videoRemoved,
    },
  };
}

/**
 * How long a media file is kept after an import last wrote or reused it, and again after a sweep first found
 * nothing naming it.
 */
export const MEDIA_GRACE_MS = 60 * 60_000;
/** The mark a sweep leaves beside a file it found unused (`.unused-<file>`; never served: not a media name). */
const UNUSED_MARK = '.unused-';

/**
 * Deletes media files of one client (DATA_DIR/media/<prefix>/, never another client's folder) that nothing
 * names any more: no item, the video or the branding (logo). Those of removed or changed items, and those an
 * import killed between copying its media and committing left behind.
 *
 * The rule keeps every file someone may still use. A file is deleted only when (1) no row names it, (2) it was
 * last written or reused (touched) by an import over an hour ago, so an import of this client running now, on
 * any instance sharing the folder, never loses a file it is about to name, and (3) an earlier sweep already found
 * it unused over an hour ago and it has not been touched since (the `.unused-<file>` mark is newer than the
 * file), so a page that an instance sent before the import, still naming the file, keeps loading it for at
 * least an hour. Answers the names deleted.
 */
export async function sweepUnusedMedia(
  db: Kysely<Database>,
  client: Pick<Client, 'id' | 'prefix'>,
  mediaDir: string,
  nowMs = Date.now(),
): Promise<string[]> {
  // The prefix is checked when a client is made; checked again as it names a folder to delete in.
  if (prefixProblem(client.prefix) !== undefined) return [];
  const dir = path.join(mediaDir, client.prefix);
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const present = new Set(names);
  const used = new Set<string>();
  const named = new RegExp(`/media/${client.prefix}/([a-f0-9]{20}\\.[a-z0-9]+)`, 'g');
  for (const text of await mediaReferenceTexts(db, client.id)) {
    for (const [, name] of text.matchAll(named)) if (name !== undefined) used.add(name);
  }
  const removed: string[] = [];
  for (const name of names) {
    if (name.startsWith(UNUSED_MARK)) {
      if (!present.has(name.slice(UNUSED_MARK.length))) {
        await unlink(path.join(dir, name)).catch(() => undefined);
      }
      continue;
    }
    // Temporary copies are removeStaleTemps's; anything else in the folder is not the import's to delete.
    if (!MEDIA_FILE.test(name)) continue;
    const file = path.join(dir, name);
    const mark = path.join(dir, UNUSED_MARK + name);
    if (used.has(name)) {
      if (present.has(UNUSED_MARK + name)) await unlink(mark).catch(() => undefined);
      continue;
    }
    const info = await stat(file).catch(() => undefined);
    if (info?.isFile() !== true || nowMs - info.mtimeMs < MEDIA_GRACE_MS) continue;
    const marked = await stat(mark).catch(() => undefined);
    if (marked === undefined || marked.mtimeMs <= info.mtimeMs) {
      // First found unused (or reused since it last was): noted now, deleted an hour later at the earliest.
      await writeFile(mark, '').catch(() => undefined);
      continue;
    }
    if (nowMs - marked.mtimeMs < MEDIA_GRACE_MS) continue;
    // Looked at again just before: an import may have reused (touched) it meanwhile.
    const again = await stat(file).catch(() => undefined);
    if (again === undefined || again.mtimeMs !== info.mtimeMs) continue;
    if (
      !(await unlink(file).then(
        () => true,
        () => false,
      ))
    )
      continue;
    await unlink(mark).catch(() => undefined);
    removed.push(name);
  }
  return removed;
}

/**
 * Imports a content folder for a client (see docs/architecture.md for the format): Markdown with front
 * matter, raw HTML allowed and sanitised, media copied under content-hash names. The client's items then match
 * the folder: upserted by type and slug, and those whose file is gone removed. Idempotent: a second run changes
 * and removes nothing. Everything is checked before anything is written, and written in one transaction. After
 * the commit, the client's media nothing names any more are swept (see {@link sweepUnusedMedia}).
 */
export async function importContent(
  db: Kysely<Database>,
  client: Client,
  folder: string,
  mediaDir: string,
  now: Date,
  options: ImportOptions = {},
): Promise<ImportResult> {
  const prepared = await prepareImport(client, folder, mediaDir);
  // Everything has passed: the media go out first (rows must never point at a file not there yet), and are
  // taken back if the rows cannot be written.
  const published = await publishImportMedia(prepared);
  let summary: ImportSummary;
  try {
    summary = await db
      .transaction()
      .execute((trx) => writeImport(trx, client, prepared, now, options));
  } catch (error) {
    await unpublishMedia(published);
    throw error;
  }
  try {
    // The files the rows now name, copied again should one have gone meanwhile (another import of this
    // client failing and taking back a file it had copied, or sweeping in the instant this one touched it).
    await publishImportMedia(prepared);
    const removed = await sweepUnusedMedia(db, client, mediaDir);
    return { ...summary, media_removed: removed, media_problem: null, notes: prepared.notes };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { ...summary, media_removed: [], media_problem: message, notes: prepared.notes };
  }
}
