import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Tags the PostgreSQL schemas this run creates, so teardown drops exactly those. */
    pgRunId: string;
  }
}

/**
 * Test schemas are dropped once, after every file has finished. Dropping them file by file raced with
 * other files' migrations: Kysely's migrator reads every schema in the database, and PostgreSQL raises
 * "schema … does not exist" (3F000) when one disappears during that read.
 */
export default function setup(project: TestProject): () => Promise<void> {
  const runId = randomBytes(4).toString('hex');
  project.provide('pgRunId', runId);
  return async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) return;
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query<{ nspname: string }>(
        'select nspname from pg_namespace where nspname like $1',
        [`t\\_${runId}\\_%`],
      );
      for (const { nspname } of rows) {
        await client.query(`drop schema if exists "${nspname}" cascade`);
      }
    } finally {
      await client.end();
    }
  };
}
