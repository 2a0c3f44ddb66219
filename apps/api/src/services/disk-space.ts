import { statfs } from 'node:fs/promises';

/** How long a reading of the free space is used before the file system is asked again. */
const READING_MS = 1000;

/**
 * Keeps the data folder's file system from filling up: a write the portal can refuse (a submission, a file) is
 * refused while it would leave less than `minFreeBytes` free, so that what must not fail (the database's own
 * commits and journal, sessions, the outbox) still has room. One visitor posting files without end, or a long
 * burst of quotes, then meets a plain refusal instead of taking the whole portal down with a full disk.
 *
 * The free space is read with `statfs` (what an unprivileged writer may use), at most once a second; `0` as
 * the minimum turns the check off. Should the file system not answer, writes are let through (the check is a
 * safeguard, not a gate).
 */
export class DiskSpace {
  #readAt = Number.NEGATIVE_INFINITY;
  #free = Number.POSITIVE_INFINITY;
  #reading: Promise<number> | undefined;

  constructor(
    readonly dir: string,
    readonly minFreeBytes: number,
  ) {}

  /** Bytes free on the folder's file system for an unprivileged writer, as last read (at most a second ago). */
  async free(nowMs: number = Date.now()): Promise<number> {
    if (nowMs - this.#readAt < READING_MS && nowMs >= this.#readAt) return this.#free;
    this.#reading ??= statfs(this.dir)
      .then((stats) => stats.bavail * stats.bsize)
      .catch(() => Number.POSITIVE_INFINITY)
      .then((free) => {
        this.#free = free;
        this.#readAt = nowMs;
        this.#reading = undefined;
        return free;
      });
    return this.#reading;
  }

  /**
   * Bytes held by writes under way (`reserve`): not on the disk yet, so not in a reading of the free space. Without
   * them, uploads arriving together were each judged against the same reading, and eight 19 MB uploads where
   * there was room for two left the disk 48 MB under the minimum (found by the twenty-ninth session's probe).
   */
  #reserved = 0;

  /**
   * What the operator is told at start when the free space is already under the minimum, or `undefined`: every
   * quote and due-diligence request would be refused (507) from the first. Found by the thirty-first session's
   * fault probe: on a 30 MB disk, 28 MB of it free, the server started without a word and refused every
   * submission as "storage nearly full", the log naming neither the free space nor MIN_FREE_DISK_MB.
   */
  async startProblem(): Promise<string | undefined> {
    if (this.minFreeBytes === 0) return undefined;
    const free = await this.free();
    if (free >= this.minFreeBytes) return undefined;
    const mb = (bytes: number) => Math.floor(bytes / (1024 * 1024)).toLocaleString('en-GB');
    return (
      `The disk of ${this.dir} has ${mb(free)} MB free, under MIN_FREE_DISK_MB (${mb(this.minFreeBytes)} MB): ` +
      'every quote and due diligence request is refused (507) until there is more room. Free some space, or set ' +
      'MIN_FREE_DISK_MB lower (0 turns the check off).'
    );
  }

  /** Whether `bytes` more may be written and still leave the minimum free (beside the writes under way). */
  async allows(bytes: number, nowMs?: number): Promise<boolean> {
    if (this.minFreeBytes === 0) return true;
    return (await this.free(nowMs)) - this.#reserved - bytes >= this.minFreeBytes;
  }

  /**
   * Holds `bytes` for a write about to be made, when they leave the minimum free beside the writes already under
   * way: the function to let them go once the write is done (or given up), or `undefined` when there is no room.
   * Letting go makes the next check read the file system again, which then counts what was written.
   */
  async reserve(bytes: number, nowMs?: number): Promise<(() => void) | undefined> {
    if (this.minFreeBytes === 0) return () => undefined;
    // Judged and held with no wait between, so that writes judged against one reading cannot all pass.
    if ((await this.free(nowMs)) - this.#reserved - bytes < this.minFreeBytes) return undefined;
    this.#reserved += bytes;
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.#reserved -= bytes;
      this.#readAt = Number.NEGATIVE_INFINITY;
    };
  }
}

/** The refusal (507) of a write the data folder has no room for. */
export const NO_ROOM_MESSAGE =
  'The portal cannot store this just now: its storage is nearly full. Please try again later.';

/**
 * Whether an error says the storage is full: the file system (`ENOSPC`, a quota's `EDQUOT`), SQLite
 * (`SQLITE_FULL`) or PostgreSQL (`53100`, disk_full). Such a request is refused with a 507 the user can retry,
 * not blamed on the form.
 */
export function isOutOfSpace(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL' || code === '53100';
}
