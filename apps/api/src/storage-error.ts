/**
 * The data folder or the database cannot take writes (read-only, full, missing rights): a start-up failure an
 * operator fixes outside the app, so its message is one plain line naming the path and the reason, printed
 * as it is rather than as a stack.
 */
export class StorageError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'StorageError';
  }
}

/** What an operator must give the app, said at the end of every StorageError. */
export const WRITABLE_DATA_DIR = 'DATA_DIR must be a writable folder with free space.';

/** Why storage cannot take a write, by SQLite's or the system's error code, in plain words. */
export function storageProblem(code: string): string | undefined {
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'the disk is full';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'it is read-only';
  if (code === 'SQLITE_CANTOPEN' || code === 'EACCES' || code === 'EPERM') {
    return 'it cannot be opened for writing';
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') return 'the disk reports an I/O error';
  // A file where one of its folders must be (`DATA_DIR/media` a file): found by the thirty-first session's fault
  // probe, the first start stopped with a JSON log line and a stack.
  if (code === 'ENOTDIR') return 'a file is where a folder must be';
  return undefined;
}

/** The `code` of a system or SQLite error ('' when it has none). */
export const codeOf = (error: unknown): string =>
  String((error as { code?: unknown } | null)?.code ?? '');
