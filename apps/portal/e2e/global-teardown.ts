import { rm } from 'node:fs/promises';

/**
 * Removes the run's data directory, when playwright.config.ts created it (`E2E_OWN_DATA_DIR`). A folder given as
 * `E2E_DATA_DIR` is left alone: found by the twenty-seventh session's probe, a run with `E2E_REUSE_SERVER=1` removed
 * the data folder of the server the developer had started, which then refused every write.
 */
export default async function globalTeardown() {
  const own = process.env.E2E_OWN_DATA_DIR;
  if (own && own === process.env.E2E_DATA_DIR) await rm(own, { recursive: true, force: true });
}
