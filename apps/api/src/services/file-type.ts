import { VISIBLE_CHARACTER } from '../text-controls.js';

/** A file type the due-diligence upload accepts, decided by the file's bytes, never by its name. */
export interface AllowedType {
  mime: string;
  ext: string;
}

/** Reads `length` bytes at `position` of the file being sniffed (fewer at its end). */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

const HEAD_BYTES = 64;

const DOCX: AllowedType = {
  mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  ext: 'docx',
};
const XLSX: AllowedType = {
  mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  ext: 'xlsx',
};
const PPTX: AllowedType = {
  mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ext: 'pptx',
};
const DOC: AllowedType = { mime: 'application/msword', ext: 'doc' };
const XLS: AllowedType = { mime: 'application/vnd.ms-excel', ext: 'xls' };

/** Office Open XML: the package's content types and the main part each application opens. */
const OOXML: [mainPart: string, type: AllowedType][] = [
  ['word/document.xml', DOCX],
  ['xl/workbook.xml', XLSX],
  ['ppt/presentation.xml', PPTX],
];
const OOXML_ENTRIES = new Set(['[Content_Types].xml', ...OOXML.map(([mainPart]) => mainPart)]);
/** Legacy Office (compound files): the stream in the root storage each application opens. */
const OLE: [stream: string, type: AllowedType][] = [
  ['WordDocument', DOC],
  ['Workbook', XLS], // Excel 97 and later
  ['Book', XLS], // Excel 5 and 95
];

/** Whether `head` holds `bytes` (or a text's Latin-1 bytes) at `offset`. */
export const startsWith = (head: Buffer, bytes: number[] | string, offset = 0): boolean => {
  const wanted = typeof bytes === 'string' ? [...Buffer.from(bytes, 'latin1')] : bytes;
  return head.length >= offset + wanted.length && wanted.every((b, i) => head[offset + i] === b);
};

/**
 * PDF and the images known by their first bytes (their signatures): what both the due-diligence upload and the
 * content import judge them by.
 */
export function signedDocumentType(head: Buffer): AllowedType | undefined {
  if (startsWith(head, '%PDF-')) return { mime: 'application/pdf', ext: 'pdf' };
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return { mime: 'image/png', ext: 'png' };
  }
  if (startsWith(head, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) {
    return { mime: 'image/gif', ext: 'gif' };
  }
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) {
    return { mime: 'image/webp', ext: 'webp' };
  }
  return undefined;
}

const ZIP_LOCAL = [0x50, 0x4b, 0x03, 0x04];
const UTF16_LE_BOM = [0xff, 0xfe];
const UTF16_BE_BOM = [0xfe, 0xff];
const CFB_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

/**
 * Sniffs a file while it streams (keeps its first bytes, checks whether it is valid UTF-8 text without NUL
 * bytes), then, once it is complete, reads the directory of an Office container: a ZIP or compound file is
 * only a document when it really holds the document's entries (a string like `word/` anywhere in the bytes
 * proves nothing: any archive can carry it).
 */
export class FileSniffer {
  #head = Buffer.alloc(0);
  #decoder = new TextDecoder('utf-8', { fatal: true });
  #text = true;
  /**
   * Whether the text opens with a tag, once its first character that shows (`FIRST_SHOWN`) has arrived: judged on
   * the decoded text, not on the first bytes kept (64 spaces before `<html>` hid the tag from those).
   */
  #opening: 'unknown' | 'markup' | 'plain' = 'unknown';
  #size = 0;
  /** Whether the bytes stopped being text only by not being UTF-8 (no NUL byte seen): 8-bit text, as Latin-1. */
  #notUtf8 = false;

  update(chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#head.length < HEAD_BYTES) {
      this.#head = Buffer.concat([this.#head, chunk.subarray(0, HEAD_BYTES - this.#head.length)]);
    }
    if (this.#text) {
      if (chunk.includes(0)) {
        this.#text = false;
      } else {
        try {
          this.#judgeOpening(this.#decoder.decode(chunk, { stream: true }));
        } catch {
          this.#text = false;
          this.#notUtf8 = true;
        }
      }
    } else if (this.#notUtf8 && chunk.includes(0)) {
      this.#notUtf8 = false; // a NUL byte: no text in any encoding
    }
  }

  /** The text from the first character that shows, while that is `<` and the next has not come. */
  #pendingOpening = '';

  #judgeOpening(text: string): void {
    if (this.#opening !== 'unknown') return;
    const start = this.#pendingOpening === '' ? FIRST_SHOWN.exec(text)?.index : 0;
    if (start === undefined) return;
    const opening = this.#pendingOpening + text.slice(start, start + 2);
    if (opening[0] !== '<') {
      this.#opening = 'plain';
    } else if (opening.length < 2) {
      this.#pendingOpening = opening;
    } else {
      this.#opening = OPENS_A_TAG.test(opening) ? 'markup' : 'plain';
    }
  }

  /**
   * The detected allowed type, or `undefined` when the content is not on the allow-list. `readAt` reads the
   * whole file (all of it has been through `update`), for the container formats' directories.
   */
  async finish(fileName: string, readAt: ReadAt): Promise<AllowedType | undefined> {
    const head = this.#head;
    const signed = signedDocumentType(head);
    if (signed !== undefined) return signed;
    if (startsWith(head, ZIP_LOCAL)) {
      const zip = await readZipDirectory(this.#size, readAt, OOXML_ENTRIES);
      if (zip === undefined || !(await zip.has('[Content_Types].xml'))) return undefined;
      for (const [mainPart, type] of OOXML) {
        if (await zip.has(mainPart)) return type;
      }
      return undefined;
    }
    if (startsWith(head, CFB_SIGNATURE)) {
      const streams = await readCompoundRoot(this.#size, readAt);
      return OLE.find(([name]) => streams?.has(name.toUpperCase()) === true)?.[1];
    }
    if (this.#text && this.#size > 0) {
      try {
        this.#judgeOpening(this.#decoder.decode());
      } catch {
        this.#notUtf8 = true;
        return undefined;
      }
      return textType(this.#opening === 'markup', fileName);
    }
    return undefined;
  }

  /**
   * Whether a file `finish` refused is a text or CSV file (by its name) in another encoding than UTF-8: 8-bit text
   * with no NUL byte, as Excel saves "CSV (Comma delimited)" (Windows-1252), or UTF-16 with its byte order mark. Its sender is told to save it as UTF-8
   * rather than that its type is not allowed (found by the twenty-eighth session's probe). Only after `finish`.
   */
  isTextNotUtf8(fileName: string): boolean {
    // UTF-16 text opens with its byte order mark, as Excel saves "Unicode Text": its NUL bytes rule out 8-bit text,
    // but it is text all the same (it was told its type is not allowed; twenty-ninth session's upload probe).
    const utf16 = startsWith(this.#head, UTF16_LE_BOM) || startsWith(this.#head, UTF16_BE_BOM);
    if (!this.#notUtf8 && !utf16) return false;
    const ext = extensionOf(fileName);
    return ext === 'csv' || ext === 'txt';
  }
}

const TEXT: AllowedType = { mime: 'text/plain', ext: 'txt' };
const CSV: AllowedType = { mime: 'text/csv', ext: 'csv' };
/**
 * The first character that shows (`VISIBLE_CHARACTER`, as a required field must hold one): markup is text whose
 * first such character opens a tag, however much comes before it that shows nothing. Not only white space (`\s`
 * takes in byte order marks too): one zero-width space, word joiner, soft hyphen, NEL or combining mark before
 * `<html>` passed a page as plain text (found by the seventeenth session's API probe), so format characters,
 * default-ignorable code points, combining marks and control characters are skipped as well.
 */
const FIRST_SHOWN = new RegExp(VISIBLE_CHARACTER, 'u');
/**
 * What opens a tag, a comment, a doctype or an XML declaration: `<` then a letter, `!`, `?` or `/` (as HTML
 * parsers and browsers' type sniffing read it). `< 5` or `<5 years` opens a line of text, not markup.
 */
const OPENS_A_TAG = /^<[A-Za-z!?/]/;
/** The uploaded name's extension, lower-case, or '' when it has none. */
const extensionOf = (fileName: string): string =>
  /\.([^./\\]*)$/.exec(fileName.trim())?.[1]?.toLowerCase() ?? '';

/**
 * Whether valid UTF-8 text is an allowed text file: plain text or CSV only, and only when it says so. A page
 * (HTML, SVG, XML: it opens with a tag) is not plain text whatever its name, and text named as another type
 * (`invoice.pdf`, `page.html`) does not match its name. A name with no extension is plain text.
 */
function textType(markup: boolean, fileName: string): AllowedType | undefined {
  if (markup) return undefined;
  const ext = extensionOf(fileName);
  if (ext === 'csv') return CSV;
  return ext === 'txt' || ext === '' ? TEXT : undefined;
}

// ZIP (APPNOTE.TXT 4.3): the end-of-central-directory record is in the last 22 + 65,535 (comment) bytes; it
// locates the central directory, which lists every entry with the offset of its local header.
const EOCD = 0x06054b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const LOCAL_ENTRY = 0x04034b50;
const MAX_U16 = 0xffff;
const MAX_U32 = 0xffffffff;

interface ZipDirectory {
  /** Whether the archive has an entry of this exact name (listed, and its local header says so too). */
  has(name: string): Promise<boolean>;
}

/** A little-endian 64-bit field as a number, or `undefined` past 2^53 (no file here is that large). */
const u64 = (buffer: Buffer, offset: number): number | undefined => {
  const value = buffer.readBigUInt64LE(offset);
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
};

/**
 * Reads a ZIP's central directory (every entry is checked, only the `wanted` names are kept: a 20 MB directory
 * holds some 400,000 entries); `undefined` when the file is not a well-formed single-disk ZIP.
 */
async function readZipDirectory(
  size: number,
  readAt: ReadAt,
  wanted: ReadonlySet<string>,
): Promise<ZipDirectory | undefined> {
  if (size < EOCD_SIZE) return undefined;
  const tailStart = Math.max(0, size - (EOCD_SIZE + MAX_U16));
  const tail = await readAt(tailStart, size - tailStart);
  // The last record whose comment ends exactly at the end of the file.
  let at = -1;
  for (let i = tail.length - EOCD_SIZE; i >= 0; i -= 1) {
    if (
      tail.readUInt32LE(i) === EOCD &&
      i + EOCD_SIZE + tail.readUInt16LE(i + 20) === tail.length
    ) {
      at = i;
      break;
    }
  }
  if (at < 0) return undefined;
  const eocdOffset = tailStart + at;
  const disk = tail.readUInt16LE(at + 4);
  const directoryDisk = tail.readUInt16LE(at + 6);
  let entries: number | undefined = tail.readUInt16LE(at + 10);
  let directorySize: number | undefined = tail.readUInt32LE(at + 12);
  let directoryOffset: number | undefined = tail.readUInt32LE(at + 16);
  let directoryEnd = eocdOffset;
  if (entries === MAX_U16 || directorySize === MAX_U32 || directoryOffset === MAX_U32) {
    // ZIP64: a locator just before the record points at the 64-bit end-of-central-directory record.
    if (eocdOffset < 20) return undefined;
    const locator = await readAt(eocdOffset - 20, 20);
    if (locator.length < 20 || locator.readUInt32LE(0) !== ZIP64_LOCATOR) return undefined;
    const recordOffset = u64(locator, 8);
    if (recordOffset === undefined || recordOffset + 56 > eocdOffset - 20) return undefined;
    const record = await readAt(recordOffset, 56);
    if (record.length < 56 || record.readUInt32LE(0) !== ZIP64_EOCD) return undefined;
    if (record.readUInt32LE(16) !== 0 || record.readUInt32LE(20) !== 0) return undefined;
    entries = u64(record, 32);
    directorySize = u64(record, 40);
    directoryOffset = u64(record, 48);
    directoryEnd = recordOffset;
  } else if (disk !== 0 || directoryDisk !== 0) {
    return undefined; // a split archive
  }
  if (entries === undefined || directorySize === undefined || directoryOffset === undefined) {
    return undefined;
  }
  // Every entry takes at least 46 bytes, so the count is bounded by the directory's size, itself by the file's.
  if (directoryOffset + directorySize > directoryEnd || entries * 46 > directorySize) {
    return undefined;
  }
  const directory = await readAt(directoryOffset, directorySize);
  if (directory.length !== directorySize) return undefined;
  const offsets = new Map<string, number>();
  let p = 0;
  for (let n = 0; n < entries; n += 1) {
    if (p + 46 > directory.length || directory.readUInt32LE(p) !== CENTRAL_ENTRY) return undefined;
    const nameLength = directory.readUInt16LE(p + 28);
    const extraLength = directory.readUInt16LE(p + 30);
    const commentLength = directory.readUInt16LE(p + 32);
    const next = p + 46 + nameLength + extraLength + commentLength;
    if (next > directory.length) return undefined;
    const utf8 = (directory.readUInt16LE(p + 8) & 0x0800) !== 0;
    const name = directory.toString(utf8 ? 'utf8' : 'latin1', p + 46, p + 46 + nameLength);
    let localOffset: number | undefined = directory.readUInt32LE(p + 42);
    if (localOffset === MAX_U32) {
      localOffset = zip64LocalOffset(
        directory.subarray(p + 46 + nameLength, p + 46 + nameLength + extraLength),
        directory.readUInt32LE(p + 24) === MAX_U32,
        directory.readUInt32LE(p + 20) === MAX_U32,
      );
    }
    if (localOffset === undefined || localOffset + 30 > directoryOffset) return undefined;
    if (wanted.has(name) && !offsets.has(name)) offsets.set(name, localOffset);
    p = next;
  }
  return {
    async has(name) {
      const offset = offsets.get(name);
      if (offset === undefined) return false;
      const expected = Buffer.from(name, 'utf8');
      const local = await readAt(offset, 30 + expected.length);
      return (
        local.length === 30 + expected.length &&
        local.readUInt32LE(0) === LOCAL_ENTRY &&
        local.readUInt16LE(26) === expected.length &&
        local.subarray(30).equals(expected)
      );
    },
  };
}

/** The local header offset from an entry's ZIP64 extra field (after the sizes it holds, when they are there). */
function zip64LocalOffset(
  extra: Buffer,
  hasUncompressed: boolean,
  hasCompressed: boolean,
): number | undefined {
  let p = 0;
  while (p + 4 <= extra.length) {
    const id = extra.readUInt16LE(p);
    const length = extra.readUInt16LE(p + 2);
    if (id === 0x0001) {
      const at = p + 4 + (hasUncompressed ? 8 : 0) + (hasCompressed ? 8 : 0);
      return at + 8 <= p + 4 + length && at + 8 <= extra.length ? u64(extra, at) : undefined;
    }
    p += 4 + length;
  }
  return undefined;
}

// Compound File Binary (MS-CFB): a 512-byte header, then sectors; the FAT chains sectors together, the DIFAT
// (109 entries in the header, then a chain of its own) lists the FAT's sectors, and the directory is a chain
// of 128-byte entries whose first is the root storage, its children a tree of siblings.
const FREE_OR_END = 0xfffffffa; // this and above: no sector (reserved, DIFAT, FAT, end of chain, free)
const NO_STREAM = 0xffffffff;
/** The size of the reads a compound file's sectors are taken from (a multiple of both sector sizes). */
const CFB_BLOCK = 64 * 1024;

/**
 * The names of the streams in a compound file's root storage, in upper case (the format compares names without
 * case); `undefined` when it is not well-formed.
 */
async function readCompoundRoot(size: number, readAt: ReadAt): Promise<Set<string> | undefined> {
  const header = await readAt(0, 512);
  if (header.length < 512 || header.readUInt16LE(0x1c) !== 0xfffe) return undefined;
  const shift = header.readUInt16LE(0x1e);
  if (shift !== 9 && shift !== 12) return undefined;
  const sectorSize = 1 << shift;
  const sectors = Math.ceil(size / sectorSize) - 1; // after the header, which fills the first sector's room
  // Sectors are read through a cache of 64 KB blocks: a directory or FAT chain may visit every sector of the
  // file, in any order (one read per sector was seconds of work for a 20 MB file).
  const blocks = new Map<number, Buffer>();
  const sectorAt = async (sector: number): Promise<Buffer | undefined> => {
    if (sector >= FREE_OR_END || sector >= sectors) return undefined;
    const position = (sector + 1) * sectorSize;
    const index = Math.floor(position / CFB_BLOCK);
    let block = blocks.get(index);
    if (block === undefined) {
      block = await readAt(index * CFB_BLOCK, CFB_BLOCK);
      blocks.set(index, block);
    }
    const offset = position - index * CFB_BLOCK;
    const data = block.subarray(offset, offset + sectorSize);
    return data.length === sectorSize ? data : undefined;
  };
  const perSector = sectorSize / 4;

  // The FAT's sector numbers: the header's 109, then the DIFAT chain (bounded by the file's sector count).
  const fatSectorCount = header.readUInt32LE(0x2c);
  if (fatSectorCount > sectors) return undefined;
  const fatSectors: number[] = [];
  for (let i = 0; i < 109 && fatSectors.length < fatSectorCount; i += 1) {
    fatSectors.push(header.readUInt32LE(0x4c + i * 4));
  }
  let difat = header.readUInt32LE(0x44);
  for (let hops = 0; fatSectors.length < fatSectorCount; hops += 1) {
    const data = hops < sectors ? await sectorAt(difat) : undefined;
    if (data === undefined) return undefined;
    for (let i = 0; i < perSector - 1 && fatSectors.length < fatSectorCount; i += 1) {
      fatSectors.push(data.readUInt32LE(i * 4));
    }
    difat = data.readUInt32LE(sectorSize - 4);
  }
  const fatCache = new Map<number, Buffer | undefined>();
  const nextSector = async (sector: number): Promise<number | undefined> => {
    const index = Math.floor(sector / perSector);
    const fatSector = fatSectors[index];
    if (fatSector === undefined) return undefined;
    if (!fatCache.has(index)) fatCache.set(index, await sectorAt(fatSector));
    return fatCache.get(index)?.readUInt32LE((sector % perSector) * 4);
  };

  // The directory's sectors, following its chain (each sector once: a loop is malformed); its 128-byte
  // entries are read as the tree below reaches them.
  const directory: number[] = [];
  const seen = new Set<number>();
  for (let sector = header.readUInt32LE(0x30); sector < FREE_OR_END;) {
    if (seen.has(sector) || (await sectorAt(sector)) === undefined) return undefined;
    seen.add(sector);
    directory.push(sector);
    const next = await nextSector(sector);
    if (next === undefined) return undefined;
    sector = next;
  }
  const perDirectorySector = sectorSize / 128;
  const entryAt = async (id: number): Promise<Buffer | undefined> => {
    const sector = directory[Math.floor(id / perDirectorySector)];
    const at = (id % perDirectorySector) * 128;
    return sector === undefined ? undefined : (await sectorAt(sector))?.subarray(at, at + 128);
  };
  const root = await entryAt(0);
  if (root === undefined || root[0x42] !== 5) return undefined;

  // The root's children: a tree through the left and right sibling links, starting at its child.
  const names = new Set<string>();
  const pending = [root.readUInt32LE(0x4c)];
  const visited = new Set<number>();
  while (pending.length > 0) {
    const id = pending.pop() ?? NO_STREAM;
    if (id === NO_STREAM) continue;
    const entry = visited.has(id) ? undefined : await entryAt(id);
    if (entry === undefined) return undefined;
    visited.add(id);
    const nameBytes = entry.readUInt16LE(0x40);
    if (entry[0x42] === 2 && nameBytes >= 2 && nameBytes <= 64 && nameBytes % 2 === 0) {
      names.add(entry.toString('utf16le', 0, nameBytes - 2).toUpperCase());
    }
    pending.push(entry.readUInt32LE(0x44), entry.readUInt32LE(0x48));
  }
  return names;
}
