import { existsSync, mkdirSync, statSync } from 'node:fs';
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
 * and the real reason. Each missing level is made on its own, from the nearest folder that exists down: Node's
 * recursive mkdir reported ENOENT whatever stopped it at a level below the first one it had to make (a read-only
 * file system, a parent it may not write; found by the sixteenth session's fault probe), and under /proc (a
 * mistyped `DATA_DIR=/proc/self/x`) it went round for ever at full CPU, deaf to SIGTERM (found by the eighteenth
 * session's fault probe).
 */
export function makeDataDir(dataDir: string): void {
  const missing: string[] = [];
  for (let at = path.resolve(dataDir); !existsSync(at); at = path.dirname(at)) {
    if (path.dirname(at) === at) break;
    missing.unshift(at);
  }
  for (const level of missing) {
    try {
      mkdirSync(level, { mode: DATA_DIR_MODE });
    } catch (error) {
      // Made meanwhile by another process starting on the same folder.
      if (codeOf(error) === 'EEXIST' && isFolder(level)) continue;
      throw new StorageError(
        `The data folder ${dataDir} cannot be created (${codeOrUnknown(error)}). ${WRITABLE_DATA_DIR}`,
        { cause: error },
      );
    }
  }
  if (missing.length === 0 && !isFolder(dataDir)) {
    throw new StorageError(
      `The data folder ${dataDir} cannot be created (EEXIST: a file has its name). ${WRITABLE_DATA_DIR}`,
    );
  }
}

function isFolder(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}
