import { rm } from 'node:fs/promises';

/** Removes the run's data directory (created by playwright.config.ts). */
export default async function globalTeardown() {
  const dataDir = process.env.E2E_DATA_DIR;
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
}
