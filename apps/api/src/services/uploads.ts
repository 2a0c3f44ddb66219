import { createHash, randomBytes } from 'node:crypto';
import { access, mkdir, open, rename, rm, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { newId } from '../crypto.js';
import { FileSniffer, type AllowedType } from './file-type.js';
import { THIS_PROCESS } from './process-mark.js';
import { fsyncPath } from './fsync.js';

/** 20 MB: the largest attachment accepted. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export const TOO_LARGE_MESSAGE = 'File size should be less than 20MB.';
export const TYPE_NOT_ALLOWED_MESSAGE =
  'This file type is not allowed. Upload a PDF, Word, Excel, image or text file.';
/** What a text or CSV file in another encoding than UTF-8 is told (`FileSniffer.isTextNotUtf8`). */
export const TEXT_NOT_UTF8_MESSAGE =
  'This text or CSV file is not saved as UTF-8. Save it as UTF-8 (in Excel: "CSV UTF-8 (Comma delimited)") and upload it again.';
export const EMPTY_FILE_MESSAGE =
  'The attached file is empty (0 bytes). Choose the file again, or send the form without one.';

/**
 * Who writes a partial upload (`tmp-<host>-<pid>-<run>-<random>`): this machine, this process, and this run of
 * it (`THIS_PROCESS`). The sweep at the next start then deletes what a killed process left at once, not an hour
 * later (upload-sweep.ts).
 */
export const UPLOAD_WRITER = THIS_PROCESS;
/** A partial upload's name, as `storeUpload` makes it. */
export const PARTIAL_UPLOAD = /^tmp-([A-Za-z0-9_]{1,60})-(\d+)-([0-9a-f]{8})-[0-9a-f]{32}$/;

export type UploadResult =
  | { status: 'empty' }
  | { status: 'empty-file' }
  | { status: 'too-large' }
  | { status: 'type-not-allowed' }
  | { status: 'text-not-utf8' }
  | {
      status: 'stored';
      /** Generated file name under the uploads folder. */
      storedName: string;
      /** The name it is shown, e-mailed and forwarded under (see `displayFileName`). */
      displayName: string;
      size: number;
      sha256: string;
      type: AllowedType;
    };

/**
 * Writes all of `chunk`: a write may take only part of it (the disk filled and then had room again, a file-size
 * limit reached within it), and the rest was dropped without a word, so a file cut short was stored and
 * acknowledged with the whole file's size and hash (found by the twentieth session's fault probe). A write that
 * takes nothing is a disk with no room.
 */
async function writeWhole(handle: FileHandle, chunk: Buffer): Promise<void> {
  for (let at = 0; at < chunk.length;) {
    const { bytesWritten } = await handle.write(chunk, at, chunk.length - at);
    if (bytesWritten === 0) {
      throw Object.assign(new Error('No room left to write the file (ENOSPC)'), { code: 'ENOSPC' });
    }
    at += bytesWritten;
  }
}

/** The uploads folders whose own names this process has fsync-ed in their parent (the data folder). */
const durableFolders = new Set<string>();

/**
 * Streams an uploaded file to `uploadsDir/tmp-<writer>-<random>` while counting bytes, hashing and sniffing its type.
 * Over the limit or not an allowed type: the partial file is deleted. Otherwise it is fsync'd and renamed to a
 * generated name (the uploaded name is never used as a path). Always consumes the whole stream, unless it is
 * destroyed (the request is being abandoned): then the partial file is deleted and the error thrown; on any
 * error nothing of the file is left, renamed or not. `onTooLarge` is called as soon as the file is known to be
 * over the limit, while the rest still arrives. `fileName` is the uploaded name (`undefined` or `''` when the
 * part has none); no bytes under no name is "no file chosen" (`empty`), no bytes under a name is a file that
 * came empty (`empty-file`: a file emptied or moved since it was chosen, a broken export), refused in words that say so.
 */
export async function storeUpload(
  stream: Readable,
  fileName: string | undefined,
  uploadsDir: string,
  onTooLarge: () => void = () => undefined,
): Promise<UploadResult> {
  // Made again if it went (deleted by hand, a restore without it): its name in the data folder is new, not durable.
  if ((await mkdir(uploadsDir, { recursive: true })) !== undefined)
    durableFolders.delete(uploadsDir);
  const { host, pid, run } = UPLOAD_WRITER;
  const tmp = path.join(uploadsDir, `tmp-${host}-${pid}-${run}-${randomBytes(16).toString('hex')}`);
  // Read as well as written: the sniffer reads an Office file's directory back once it is complete.
  const handle = await open(tmp, 'wx+', 0o600);
  const hash = createHash('sha256');
  const sniffer = new FileSniffer();
  let size = 0;
  let tooLarge = false;
  let closed = false;
  let stored: string | undefined;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (tooLarge) continue; // drain the rest without keeping it
      if (size > MAX_UPLOAD_BYTES) {
        tooLarge = true;
        onTooLarge();
        continue;
      }
      hash.update(chunk);
      sniffer.update(chunk);
      await writeWhole(handle, chunk);
    }
    if (tooLarge || size === 0) {
      await handle.close();
      closed = true;
      await rm(tmp, { force: true });
      if (tooLarge) return { status: 'too-large' };
      return { status: (fileName ?? '') === '' ? 'empty' : 'empty-file' };
    }
    const type = await sniffer.finish(fileName ?? '', async (position, length) => {
      const buffer = Buffer.alloc(Math.max(0, Math.min(length, size - position)));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      return buffer.subarray(0, bytesRead);
    });
    if (type === undefined) {
      await handle.close();
      closed = true;
      await rm(tmp, { force: true });
      return {
        status: sniffer.isTextNotUtf8(fileName ?? '') ? 'text-not-utf8' : 'type-not-allowed',
      };
    }
    const displayName = displayFileName(fileName ?? '', type.ext);
    await handle.sync();
    await handle.close();
    closed = true;
    const storedName = `${newId()}.${type.ext}`;
    stored = path.join(uploadsDir, storedName);
    await rename(tmp, stored);
    await fsyncPath(uploadsDir);
    if (!durableFolders.has(uploadsDir)) {
      // The uploads folder is made by the first upload: its own name in the data folder must be durable too, or
      // a power cut could take the folder, and the file the committed row names, with it (found by the
      // twenty-ninth session's probe; imported media and the session secret fsync their folders the same way).
      await fsyncPath(path.dirname(uploadsDir));
      durableFolders.add(uploadsDir);
    }
    return {
      status: 'stored',
      storedName,
      displayName,
      size,
      sha256: hash.digest('hex'),
      type,
    };
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    if (stored !== undefined) await rm(stored, { force: true });
    throw error;
  }
}

/**
 * Where a stored upload a queued mail or forward names is, and whether it is gone (deleted by hand, a restore
 * without the uploads folder). A gone file never comes back, so the caller sends without it, saying so,
 * rather than retrying for ever (found by the sixteenth session's fault probe); any other error reading it (a
 * disk fault) is thrown, to be retried.
 */
export async function findStoredUpload(
  uploadsDir: string,
  storedPath: string,
): Promise<{ file: string; missing: boolean }> {
  const file = path.join(uploadsDir, path.basename(storedPath));
  try {
    await access(file);
    return { file, missing: false };
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ENOENT') return { file, missing: true };
    throw error;
  }
}

/** Deletes a stored upload (used when the database write after it fails). */
export async function removeUpload(uploadsDir: string, storedName: string): Promise<void> {
  await rm(path.join(uploadsDir, path.basename(storedName)), { force: true });
}

const MAX_DISPLAY_NAME = 200;
/**
 * What a shown name drops: control characters (C0, DEL and C1, such as U+0085, a line break to some readers),
 * unpaired surrogates, format characters (bidirectional controls: `invoice\u202Etxt.lmth` would show as
 * `invoicehtml.txt`; zero-width ones, soft hyphens, byte order marks), line and paragraph separators, quotes,
 * and the characters Windows does not allow in a file name (`C:x.pdf` names a path on drive C).
 */
const NOT_SHOWN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}"<>:|?*]/u;
/** What is taken for the uploaded name's extension: a short run of letters and digits, not only digits. */
const EXTENSION = /\.[a-z0-9]{0,15}[a-z][a-z0-9]{0,15}$/i;

/**
 * The most bytes a shown name takes in UTF-8: what ext4 and XFS allow (NTFS allows 255 UTF-16 units, never
 * fewer than the UTF-8 bytes). 200 characters of `é` or of emoji made a name no staff machine could save.
 */
const MAX_DISPLAY_BYTES = 255;
/**
 * A name Windows keeps for a device, with or without extensions (`CON.pdf`, `nul.tar.pdf`): a file of that
 * name cannot be saved there.
 */
const DEVICE_NAME = /^(CON|PRN|AUX|NUL|COM[0-9¹²³]|LPT[0-9¹²³]|CONIN\$|CONOUT\$)(?=\s*(?:\.|$))/i;

/** A space (what `\s` matches: every one is a single UTF-16 unit) or a dot. */
const SPACE_OR_DOT = /^[\s.]$/;

/**
 * `text` without leading and trailing spaces and dots. A loop, not `/[\s.]+$/`: unanchored at its start, that
 * rescans a run of spaces from each of its characters (a name of 70,000 spaces and a letter kept the server
 * busy for seconds).
 */
function trimSpacesAndDots(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && SPACE_OR_DOT.test(text.charAt(start))) start += 1;
  while (end > start && SPACE_OR_DOT.test(text.charAt(end - 1))) end -= 1;
  return text.slice(start, end);
}

/**
 * The name a stored file is shown under, e-mailed and forwarded with: the uploaded name's last path segment
 * without control, format or separator characters, quotes or characters Windows refuses (`NOT_SHOWN`), its
 * extension replaced with that of the type its content was recognised as (`ext`), so a text file named
 * `invoice.html` goes to staff as `invoice.txt` and no browser or mail client renders it as a page; cut to 200
 * characters and 255 bytes with that extension kept; a Windows device name gets a `_` (`CON.pdf` → `CON_.pdf`).
 */
export function displayFileName(name: string, ext: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = [...base].filter((c) => !NOT_SHOWN.test(c)).join('');
  // Leading dots would hide the file on the staff's machines; Windows drops trailing dots and spaces.
  const stem = [...trimSpacesAndDots(trimSpacesAndDots(clean).replace(EXTENSION, ''))].slice(
    0,
    MAX_DISPLAY_NAME - ext.length - 1,
  );
  let bytes = Buffer.byteLength(`${stem.join('')}.${ext}`);
  while (bytes > MAX_DISPLAY_BYTES && stem.length > 0) bytes -= Buffer.byteLength(stem.pop() ?? '');
  const shown = trimSpacesAndDots(stem.join('')) || 'attachment';
  return `${shown.replace(DEVICE_NAME, '$1_')}.${ext}`;
}
