import { statSync } from 'node:fs';
import path from 'node:path';

/** The code of the error a write gets once the database's WAL files were replaced (db/unavailable.ts: 503). */
export const FILES_REPLACED = 'SQLITE_FILES_REPLACED';

/** How often the files are looked at. */
const CHECK_EVERY_MS = 1_000;

const identity = (file: string): string | undefined => {
  try {
    const { dev, ino } = statSync(file);
    return `${dev}:${ino}`;
  } catch {
    return undefined;
  }
};

/**
 * Watches the SQLite database's file and its `-wal` and `-shm` files for being deleted or replaced while the server has them
 * open. SQLite's processes coordinate through the `-shm` file: once it was deleted (by hand, a clean-up script),
 * the next process to open the database (the staff tool, a second instance) made a new one, and the two wrote
 * the same WAL without seeing each other: acknowledged quotes were lost, references given twice, the file
 * destroyed (found by the seventeenth session's fault probe). This process cannot mend that; from the moment it
 * sees it (within a second) it refuses every write (503) and never checkpoints on closing, so it adds nothing
 * to the damage, and it says so in the log once: every process using the folder must be stopped, then started
 * again (SQLite rebuilds the index from the WAL).
 */
export class SqliteFilesWatch {
  /** The file found deleted or replaced (its base name), once seen. */
  replaced: string | undefined;
  readonly #files: { name: string; file: string; id: string }[];
  #timer: NodeJS.Timeout | undefined;

  constructor(
    databaseFile: string,
    private readonly onReplaced: (name: string) => void,
  ) {
    // The database file itself too (found by the eighteenth session's fault probe: moved away while the server
    // ran, it kept answering 201 to writes that went into a WAL no longer paired with it, lost once the staff
    // tool or a restart made a new, empty database in its place).
    this.#files = ['', '-wal', '-shm'].flatMap((suffix) => {
      const file = `${databaseFile}${suffix}`;
      const id = identity(file);
      return id === undefined ? [] : [{ name: path.basename(file), file, id }];
    });
  }

  /** Looks at the files now; true while they are the ones opened. */
  check(): boolean {
    if (this.replaced !== undefined) return false;
    for (const { name, file, id } of this.#files) {
      if (identity(file) !== id) {
        this.replaced = name;
        this.onReplaced(name);
        return false;
      }
    }
    return true;
  }

  start(): void {
    this.#timer ??= setInterval(() => this.check(), CHECK_EVERY_MS);
    this.#timer.unref();
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** The error a write gets once the files were replaced. */
  error(): Error {
    return Object.assign(
      new Error(
        `The database's ${this.replaced ?? 'WAL'} file was deleted or replaced by another program while this ` +
          'server had it open: writes are refused until every process using DATA_DIR is stopped and started again.',
      ),
      { code: FILES_REPLACED, file: this.replaced ?? 'WAL' },
    );
  }
}
