import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { defineConfig, devices } from '@playwright/test';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

/** The API under test: the built server, on its own port, with a fresh data directory for each run. */
const PORT = Number(process.env.E2E_PORT ?? 3111);
const baseURL = `http://127.0.0.1:${PORT}`;

// The config is evaluated by the runner and again by each worker: the first evaluation creates the data directory
// and the workers inherit its path through the environment. global-teardown removes it, and only it: never a folder
// given as E2E_DATA_DIR (with E2E_REUSE_SERVER=1, the data of a server the developer started).
if (process.env.E2E_DATA_DIR === undefined) {
  process.env.E2E_DATA_DIR = mkdtempSync(path.join(tmpdir(), 'firm-portal-e2e-'));
  process.env.E2E_OWN_DATA_DIR = process.env.E2E_DATA_DIR;
}
const dataDir = process.env.E2E_DATA_DIR;

/** Screenshots for CI artefacts (gitignored). */
export const SCREENSHOT_DIR = path.join(repoRoot, 'artifacts', 'screenshots');

/** Debian's Chromium, or the browser `CHROMIUM` names (scripts/ensure-chromium.sh checks it exists). */
const chromiumPath = process.env.CHROMIUM || '/usr/bin/chromium';

const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  },
};

export default defineConfig({
  testDir: './e2e',
  outputDir: process.env.E2E_OUTPUT_DIR ?? path.join(repoRoot, 'artifacts', 'e2e-results'),
  globalTeardown: './e2e/global-teardown.ts',
  fullyParallel: false,
  // Two cores are shared: one worker keeps the API and the browser responsive.
  workers: 1,
  forbidOnly: Boolean(process.env.CI),
  retries: process.env.CI ? 1 : 0,
  // Generous: the machine running the tests may be busy (two cores shared by several jobs).
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI
    ? [
        ['list'],
        [
          'html',
          { open: 'never', outputFolder: path.join(repoRoot, 'artifacts', 'playwright-report') },
        ],
      ]
    : 'list',
  use: {
    baseURL,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'desktop',
      use: { ...chromium, viewport: { width: 1280, height: 800 } },
    },
  ],
  webServer: {
    command: 'node ../api/dist/server.js',
    url: `${baseURL}/api/demo`,
    // E2E_REUSE_SERVER=1 with E2E_PORT and E2E_DATA_DIR: run against an API you started yourself (development).
    reuseExistingServer: process.env.E2E_REUSE_SERVER === '1',
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      PORTAL_DIST: path.join(here, 'dist'),
      PUBLIC_URL: baseURL,
      // Every test logs in afresh from 127.0.0.1: lift the per-address login limit (the API's own tests cover it),
      // and deliver the outbox quickly for the magic-link login.
      LOGIN_LIMIT_PER_ADDRESS: '100000',
      // Likewise the per-address limits on quotes and due diligence requests, all sent from 127.0.0.1.
      QUOTE_LIMIT_PER_ADDRESS: '100000',
      DUE_DILIGENCE_LIMIT_PER_ADDRESS: '100000',
      OUTBOX_POLL_MS: '200',
    },
  },
});
