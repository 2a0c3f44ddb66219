import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import { countClients, createClient, findClientByPrefix } from '../repositories/clients.js';
import { importContent, readClientFile } from './content-import.js';

/**
 * On first start (no clients yet) creates a client for every CONTENT_DIR/<folder>/client.yml (the repo ships
 * `demo`, policy open, and `northbank`, policy magic-link) and imports its content with the staff importer.
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
  const seeded: string[] = [];
  const folders = (await readdir(contentDir, { withFileTypes: true }))
    .filter((d) => d.isDirectory() && existsSync(path.join(contentDir, d.name, 'client.yml')))
    .map((d) => d.name)
    .sort();
  for (const name of folders) {
    const folder = path.join(contentDir, name);
    const { client: details } = await readClientFile(folder);
    if ((await findClientByPrefix(db, details.prefix)) !== undefined) continue;
    let client;
    try {
      client = await createClient(db, details, now);
    } catch (error) {
      // Another instance starting at the same moment created it first: it imports the content.
      if ((await findClientByPrefix(db, details.prefix)) !== undefined) continue;
      throw error;
    }
    const summary = await importContent(db, client, folder, mediaDir, now);
    log.info({ client: client.prefix, ...summary }, 'Seeded client from content folder');
    seeded.push(client.prefix);
  }
  return seeded;
}
