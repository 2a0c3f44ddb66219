import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { writerGone } from './process-mark.js';
import { PARTIAL_UPLOAD } from './uploads.js';

/** A file younger than this may belong to an upload still in flight (on any instance sharing the folder). */
export const ORPHAN_AGE_MS = 60 * 60_000;
const LOOKUP_BATCH = 200;

/**
 * Whether a partial upload's writer is known to be gone: a process of this host that has ended, or an
 * earlier run of this very pid (restarted in a container). Another host's, or one in an older name, only
 * its age tells.
 */
function partialWriterGone(name: string): boolean {
  const [, host, pid, run] = PARTIAL_UPLOAD.exec(name) ?? [];
  return host !== undefined && writerGone(host, Number(pid), run ?? '');
}

/**
 * Deletes what a crash can leave in the uploads folder: partial `tmp-*` files, and stored files whose
 * request never committed (no due-diligence row names them). Only files older than {@link ORPHAN_AGE_MS} are
 * touched, so uploads in progress are safe, except partial files whose writer is gone (a process of this host
 * that was killed), deleted at once: the sweep at start then leaves none of a kill's half-written files.
 * Returns the names deleted.
 */
export async function sweepOrphanUploads(
  db: Kysely<Database>,
  uploadsDir: string,
  now: Date,
): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(uploadsDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const old: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(uploadsDir, name)).catch(() => undefined);
    if (!info?.isFile()) continue;
    if (now.getTime() - info.mtimeMs > ORPHAN_AGE_MS || partialWriterGone(name)) old.push(name);
  }
  const referenced = new Set<string>();
  const stored = old.filter((name) => !name.startsWith('tmp-'));
  for (let i = 0; i < stored.length; i += LOOKUP_BATCH) {
    const rows = await db
      .selectFrom('due_diligence')
      .select('attachment_path')
      .where('attachment_path', 'in', stored.slice(i, i + LOOKUP_BATCH))
      .execute();
    for (const row of rows) if (row.attachment_path !== null) referenced.add(row.attachment_path);
  }
  const orphans = old.filter((name) => !referenced.has(name));
  for (const name of orphans) await rm(path.join(uploadsDir, name), { force: true });
  return orphans;
}
