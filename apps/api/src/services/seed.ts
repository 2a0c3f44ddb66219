import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { countClients, createClient, type NewClient } from '../repositories/clients.js';
import {
  ContentError,
  prepareImport,
  publishImportMedia,
  readClientFile,
  unpublishMedia,
  writeImport,
  type ImportSummary,
  type PreparedImport,
} from './content-import.js';

/**
 * On first start (no clients yet) creates a client for every CONTENT_DIR/<folder>/client.yml (the repo ships
 * `demo`, policy open, and `northbank`, policy magic-link) and imports its content with the staff importer.
 *
 * All of it is one transaction: every folder is read and checked and its media published first, then the
 * clients and their content are written and committed together. A start killed (or failing) part-way leaves
 * no clients, so the next start seeds everything again; it used to leave a client without content, or only
 * the first client, for good (a database with clients is never seeded again).
 */
export async function seedIfEmpty(
  db: Kysely<Database>,
  contentDir: string,
  mediaDir: string,
  now: Date,
  log: FastifyBaseLogger,
): Promise<string[]> {
  if ((await countClients(db)) > 0) return [];
  if (!existsSync(contentDir)) {
    log.warn({ contentDir }, 'No content folder: starting without seed clients');
    return [];
  }
  const folders = (await readdir(contentDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && existsSync(path.join(contentDir, d.name, 'client.yml')))
    .map((d) => d.name)
    .sort();
  const planned: { details: NewClient; prepared: PreparedImport }[] = [];
  for (const name of folders) {
    const folder = path.join(contentDir, name);
    try {
      const { client: details } = await readClientFile(folder);
      // Two folders naming one prefix: the first (in name order) is the client.
      if (planned.some((p) => p.details.prefix === details.prefix)) continue;
      planned.push({
        details,
        prepared: await prepareImport(
          { ...details, branding: { ...details.branding, logo_url: null } },
          folder,
          mediaDir,
        ),
      });
    } catch (error) {
      // Which folder: the problem names only the file within it (found by the twenty-fourth session's fault probe).
      if (error instanceof ContentError) {
        throw new ContentError(`The seed content folder ${folder}: ${error.message}`);
      }
      throw error;
    }
  }
  const published: string[] = [];
  let summaries: ImportSummary[];
  try {
    for (const { prepared } of planned) published.push(...(await publishImportMedia(prepared)));
    summaries = await db.transaction().execute(async (trx) => {
      const done: ImportSummary[] = [];
      for (const { details, prepared } of planned) {
        const client = await createClient(trx, details, now);
        done.push(await writeImport(trx, client, prepared, now));
      }
      return done;
    });
  } catch (error) {
    // Another instance starting at the same moment seeded first (a duplicate prefix ended this transaction):
    // its rows may point at the media published here (same content, same names), so they stay.
    if ((await countClients(db)) > 0) return [];
    await unpublishMedia(published);
    throw error;
  }
  planned.forEach(({ details, prepared }, i) => {
    log.info({ client: details.prefix, ...summaries[i] }, 'Seeded client from content folder');
    for (const note of prepared.notes) log.warn({ client: details.prefix }, note);
  });
  return planned.map(({ details }) => details.prefix);
}
