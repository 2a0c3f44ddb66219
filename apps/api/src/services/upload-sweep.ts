import { readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A file younger than this may belong to an upload still in flight (on any instance sharing the folder). */
export const ORPHAN_AGE_MS = 60 * 60_000;
const LOOKUP_BATCH = 200;

/**
 * Deletes what a crash can leave in the uploads folder: partial `tmp-*` files, and stored files whose
 * request never committed (no due-diligence row names them). Only files older than {@link ORPHAN_AGE_MS} are
 * touched, so uploads in progress are safe. Returns the names deleted.
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
    if (info?.isFile() && now.getTime() - info.mtimeMs > ORPHAN_AGE_MS) old.push(name);
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
