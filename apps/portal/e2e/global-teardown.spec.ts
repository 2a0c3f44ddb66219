import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { expect, test } from '@playwright/test';

import globalTeardown from './global-teardown';

/** Runs the teardown with `env` in place of the run's own variables, then puts them back. */
async function teardownWith(env: { E2E_DATA_DIR: string; E2E_OWN_DATA_DIR?: string }) {
  const saved = {
    E2E_DATA_DIR: process.env.E2E_DATA_DIR,
    E2E_OWN_DATA_DIR: process.env.E2E_OWN_DATA_DIR,
  };
  process.env.E2E_DATA_DIR = env.E2E_DATA_DIR;
  if (env.E2E_OWN_DATA_DIR === undefined) delete process.env.E2E_OWN_DATA_DIR;
  else process.env.E2E_OWN_DATA_DIR = env.E2E_OWN_DATA_DIR;
  try {
    await globalTeardown();
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

test.describe('the e2e run’s teardown', () => {
  test('removes the data folder the run made, and never one it was given', async () => {
    const given = mkdtempSync(path.join(tmpdir(), 'firm-portal-e2e-given-'));
    const made = mkdtempSync(path.join(tmpdir(), 'firm-portal-e2e-made-'));
    try {
      // E2E_REUSE_SERVER=1 with the developer's own server and its DATA_DIR.
      await teardownWith({ E2E_DATA_DIR: given });
      expect(existsSync(given)).toBe(true);
      await teardownWith({ E2E_DATA_DIR: given, E2E_OWN_DATA_DIR: made });
      expect(existsSync(given)).toBe(true);
      expect(existsSync(made)).toBe(true);

      await teardownWith({ E2E_DATA_DIR: made, E2E_OWN_DATA_DIR: made });
      expect(existsSync(made)).toBe(false);
    } finally {
      rmSync(given, { recursive: true, force: true });
      rmSync(made, { recursive: true, force: true });
    }
  });
});
