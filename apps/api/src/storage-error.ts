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
