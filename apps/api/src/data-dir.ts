import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { StorageError, WRITABLE_DATA_DIR, codeOf } from './storage-error.js';

/**
 * A data folder the server creates is its owner's alone: it holds the database (names, e-mails, phones), the
 * uploads and the outbox's mails, which the default umask would leave readable by every local user.
 */
export const DATA_DIR_MODE = 0o700;

const codeOrUnknown = (error: unknown): string => codeOf(error) || 'unknown error';

/**
 * Makes the data folder (and its missing parents) unless it exists, or throws a StorageError naming the folder
 * and the real reason. Node's recursive mkdir reports ENOENT whatever stopped it at a level below the first
 * one it had to make (a read-only file system, a parent it may not write): the operator was told "ENOENT" for a
 * read-only disk (found by the sixteenth session's fault probe). The level that failed is made again alone,
 * which fails with the real code.
 */
export function makeDataDir(dataDir: string): void {
  try {
    mkdirSync(dataDir, { recursive: true, mode: DATA_DIR_MODE });
    return;
  } catch (error) {
    throw new StorageError(
      `The data folder ${dataDir} cannot be created (${realCode(dataDir, error)}). ${WRITABLE_DATA_DIR}`,
      { cause: error },
    );
  }
}

function realCode(dataDir: string, error: unknown): string {
  const code = codeOrUnknown(error);
  if (code !== 'ENOENT') return code;
  // The first missing level under the nearest folder that exists.
  let missing = path.resolve(dataDir);
  while (!existsSync(path.dirname(missing)) && path.dirname(missing) !== missing) {
    missing = path.dirname(missing);
  }
  try {
    mkdirSync(missing, { mode: DATA_DIR_MODE });
  } catch (again) {
    return codeOrUnknown(again);
  }
  return code;
}
