import { mkdir, readdir, readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { test as base, expect } from '@playwright/test';
import type { Page } from '@playwright/test';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));

/** Where screenshots go for CI artefacts (gitignored). */
export const SCREENSHOT_DIR = path.resolve(here, '../../../artifacts/screenshots');

export const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  phone: { width: 390, height: 844 },
} as const;

/** The run's API data directory (playwright.config.ts creates it and hands it to the API and the workers). */
export function dataDir(): string {
  const dir = process.env.E2E_DATA_DIR;
  if (!dir) throw new Error('E2E_DATA_DIR is not set: run the tests through playwright.config.ts.');
  return dir;
}

let userCounter = 0;

/** A fresh fictional user, unique within the run (each login starts its own session). */
export function newUser(label = 'user') {
  userCounter += 1;
  const id = `${Date.now().toString(36)}${process.pid.toString(36)}${userCounter}`;
  return {
    first_name: 'Alex',
    last_name: `Tester ${label}`,
    email: `e2e.${label}.${id}@example.com`,
    phone: '07700 900123',
  };
}

type User = ReturnType<typeof newUser>;

async function fillLoginForm(page: Page, prefix: string, user: User) {
  await page.goto(`/${prefix}/login`);
  await page.getByLabel('First name').fill(user.first_name);
  await page.getByLabel('Last name').fill(user.last_name);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Phone').fill(user.phone);
  await page.getByRole('button', { name: 'Continue' }).click();
}

/** Logs in on an open-policy client: the form leads straight to the dashboard. */
export async function loginOpen(page: Page, prefix = 'demo', user: User = newUser('open')) {
  await fillLoginForm(page, prefix, user);
  await expect(page).toHaveURL(new RegExp(`/${prefix}/dashboard$`));
  await expect(page.getByText(`Welcome, ${user.first_name}`)).toBeVisible();
  return user;
}

/**
 * Logs in on a magic-link client: asks for the link, reads it from the newest e-mail in the API's outbox
 * (DATA_DIR/outbox/*.eml), opens it and presses Continue on the API's page.
 */
export async function loginMagicLink(
  page: Page,
  prefix = 'northbank',
  user: User = newUser('link'),
) {
  const since = Date.now();
  await fillLoginForm(page, prefix, user);
  await expect(page.getByText('An email has been sent with a link to log in')).toBeVisible();
  const link = await waitForLoginLink(user.email, since);
  await page.goto(link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/${prefix}/dashboard$`));
  await expect(page.getByText(`Welcome, ${user.first_name}`)).toBeVisible();
  return user;
}

/** The login link of the newest outbox e-mail to `email` written after `since` (ms). */
export async function waitForLoginLink(
  email: string,
  since: number,
  timeoutMs = 10_000,
): Promise<string> {
  const outbox = path.join(dataDir(), 'outbox');
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = await newestMails(outbox, since);
    for (const mail of mails) {
      const text = decodeMail(await readFile(mail, 'utf8'));
      if (!text.toLowerCase().includes(email.toLowerCase())) continue;
      const link = /https?:\/\/[^\s"'<>]+\/login\/link\?token=[A-Za-z0-9_\-.~%]+/.exec(text)?.[0];
      if (link) return link.replace(/&amp;/g, '&');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No login e-mail to ${email} arrived in ${outbox}`);
}

async function newestMails(outbox: string, since: number): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(outbox)).filter((name) => name.endsWith('.eml'));
  } catch {
    return [];
  }
  const files = await Promise.all(
    names.map(async (name) => {
      const file = path.join(outbox, name);
      return { file, mtime: (await stat(file)).mtimeMs };
    }),
  );
  return files
    .filter(({ mtime }) => mtime >= since - 1_000)
    .sort((a, b) => b.mtime - a.mtime)
    .map(({ file }) => file);
}

/** Undoes quoted-printable soft breaks and escapes, so a link split over lines reads whole. */
function decodeMail(raw: string): string {
  if (!/content-transfer-encoding:\s*quoted-printable/i.test(raw)) return raw;
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

interface AxeResults {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

let axeSource: string | undefined;

/** Runs axe-core (every rule it runs by default) on the page as it is now, and fails on any violation. */
export async function expectNoAxeViolations(page: Page) {
  // Evaluated through the DevTools protocol rather than a <script> tag, so the page's CSP stays in force.
  axeSource ??= await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource);
  // Colours are judged as they end, not half-way through a transition (found by the twenty-sixth session: on a busy
  // machine axe met the links of an opening accordion panel at part opacity and called their contrast too low).
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished.catch(() => undefined)),
    ),
  );
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } })
      .axe;
    return axe.run(document);
  });
  const summary = results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'n/a'}): ${violation.help} — ${violation.nodes
        .map((node) => JSON.stringify(node.target))
        .join(', ')}`,
  );
  expect(summary, `axe violations on ${page.url()}`).toEqual([]);
}

/** The docs' screenshots (docs/screenshots), refreshed when DOCS_SCREENSHOTS=1. */
export const DOCS_SCREENSHOT_DIR = path.resolve(here, '../../../docs/screenshots');

/**
 * Saves a full-page screenshot under artifacts/screenshots/<name>.png; with DOCS_SCREENSHOTS=1 and `forDocs`, also
 * the visible part (small) under docs/screenshots/<name>.png.
 */
export async function saveScreenshot(page: Page, name: string, { forDocs = false } = {}) {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
  if (forDocs && process.env.DOCS_SCREENSHOTS === '1') {
    await mkdir(DOCS_SCREENSHOT_DIR, { recursive: true });
    await page.screenshot({ path: path.join(DOCS_SCREENSHOT_DIR, `${name}.png`) });
  }
}

interface Fixtures {
  /** A page already logged in on the demo client (a fresh user and session per test). */
  hub: Page;
}

/**
 * Counts the page's layout shifts (the Layout Instability API's, those not within half a second of input, as
 * Lighthouse's CLS counts them). Call before the first `goto`; `reset` starts counting again from zero.
 */
export async function trackLayoutShifts(page: Page) {
  await page.addInitScript(() => {
    const shifts = { total: 0 };
    Object.assign(window, { shifts });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
      })[]) {
        if (!entry.hadRecentInput) shifts.total += entry.value;
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  return {
    reset: () =>
      page.evaluate(() => {
        (window as unknown as { shifts: { total: number } }).shifts.total = 0;
      }),
    total: () =>
      page.evaluate(() => (window as unknown as { shifts: { total: number } }).shifts.total),
  };
}

/**
 * Follows the hub's link named `link` as a user would: from the menu drawer on a phone (`phone`), from the sidebar's
 * main navigation otherwise.
 */
export async function followHubLink(page: Page, link: string, phone: boolean) {
  if (phone) {
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: link }).click();
  } else {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link }).click();
  }
}

/** Holds back each answer of the API calls matching `pattern` by `ms`, as a slow connection would. */
export async function slowDown(page: Page, pattern: string | RegExp, ms = 1_500) {
  await page.route(pattern, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, ms));
    await route.continue();
  });
}

export const test = base.extend<Fixtures>({
  hub: async ({ page }, use) => {
    await loginOpen(page, 'demo');
    await use(page);
  },
});

export { expect };
