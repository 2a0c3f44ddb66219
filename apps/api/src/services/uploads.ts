import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { newId } from '../crypto.js';
import { FileSniffer, type AllowedType } from './file-type.js';

/** 20 MB: the largest attachment accepted. */
export const MAX_UPLOAD_BYTES = 20 * 1024 * 1024;
export const TOO_LARGE_MESSAGE = 'File size should be less than 20MB.';
export const TYPE_NOT_ALLOWED_MESSAGE =
  'This file type is not allowed. Upload a PDF, Word, Excel, image or text file.';

export type UploadResult =
  | { status: 'empty' }
  | { status: 'too-large' }
  | { status: 'type-not-allowed' }
  | {
      status: 'stored';
      /** Generated file name under the uploads folder. */
      storedName: string;
      size: number;
      sha256: string;
      type: AllowedType;
    };

/**
 * Streams an uploaded file to `uploadsDir/tmp-<random>` while counting bytes, hashing and sniffing its type.
 * Over the limit or not an allowed type: the partial file is deleted. Otherwise it is fsync'd and renamed to a
 * generated name (the uploaded name is never used as a path). Always consumes the whole stream.
 */
export async function storeUpload(
  stream: Readable,
  fileName: string,
  uploadsDir: string,
): Promise<UploadResult> {
  await mkdir(uploadsDir, { recursive: true });
  const tmp = path.join(uploadsDir, `tmp-${randomBytes(16).toString('hex')}`);
  const handle = await open(tmp, 'wx', 0o600);
  const hash = createHash('sha256');
  const sniffer = new FileSniffer();
  let size = 0;
  let tooLarge = false;
  let closed = false;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (tooLarge) continue; // drain the rest without keeping it
      if (size > MAX_UPLOAD_BYTES) {
        tooLarge = true;
        continue;
      }
      hash.update(chunk);
      sniffer.update(chunk);
      await handle.write(chunk);
    }
    if (tooLarge || size === 0) {
      await handle.close();
      closed = true;
      await rm(tmp, { force: true });
      return { status: tooLarge ? 'too-large' : 'empty' };
    }
    const type = sniffer.finish(fileName);
    if (type === undefined) {
      await handle.close();
      closed = true;
      await rm(tmp, { force: true });
      return { status: 'type-not-allowed' };
    }
    await handle.sync();
    await handle.close();
    closed = true;
    const storedName = `${newId()}.${type.ext}`;
    await rename(tmp, path.join(uploadsDir, storedName));
    await syncDirectory(uploadsDir);
    return { status: 'stored', storedName, size, sha256: hash.digest('hex'), type };
  } catch (error) {
    if (!closed) await handle.close().catch(() => undefined);
    await rm(tmp, { force: true });
    throw error;
  }
}

/** fsync a directory so a rename in it survives a crash. */
async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** Deletes a stored upload (used when the database write after it fails). */
export async function removeUpload(uploadsDir: string, storedName: string): Promise<void> {
  await rm(path.join(uploadsDir, path.basename(storedName)), { force: true });
}

/** A file name safe to show and to send on (no paths, no control characters). */
export function displayFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = [...base]
    .filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f && c !== '"')
    .join('')
    .trim();
  return clean === '' ? 'attachment' : clean.slice(0, 200);
}
