import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { expect, expectNoAxeViolations, newUser, test } from './fixtures';

/**
 * Hostile and clumsy use of the portal's forms: the refusals the API can answer (429 rate limit, 507 disk nearly
 * full, no connection) must reach the user as the API's message, with keyboard focus on it, nothing typed lost and
 * nothing for axe to find; leaving the page mid-upload must not drag the user back to it later.
 */

const TOO_MANY =
  'Too many due diligence requests in an hour. Please try again later, or e-mail the team.';
const DISK_FULL =
  'The portal cannot store this just now: its storage is nearly full. Please try again later.';
const DUE_DILIGENCE_POST = /\/api\/demo\/due-diligence$/;

let files: string;

test.beforeAll(async () => {
  files = await mkdtemp(path.join(tmpdir(), 'firm-portal-hostile-forms-'));
  await writeFile(
    path.join(files, 'site-appraisal.pdf'),
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  );
});

test.afterAll(async () => {
  await rm(files, { recursive: true, force: true });
});

async function fillRequired(page: Page) {
  await page.getByLabel('Project name').fill('Harbour Quay Phase 2');
  await page.getByLabel('Project address', { exact: true }).fill('1 Quay Street');
  await page.getByLabel('City and postcode').fill('Bristol BS1 4XX');
  await page.getByLabel('Project description').fill('Forty-two apartments.');
}

test.describe('the due-diligence form refused', () => {
  for (const [status, message] of [
    [429, TOO_MANY],
    [507, DISK_FULL],
  ] as const) {
    test(`${status}: the API's message takes focus, the form keeps what was typed`, async ({
      hub: page,
    }) => {
      let posts = 0;
      await page.route(DUE_DILIGENCE_POST, (route) => {
        posts += 1;
        return route.fulfill({
          status,
          contentType: 'application/json; charset=utf-8',
          headers: status === 429 ? { 'retry-after': '3600' } : {},
          body: JSON.stringify({ error: message }),
        });
      });
      await page.goto('/demo/due-diligence');
      await fillRequired(page);
      await page
        .locator('input[type="file"]')
        .setInputFiles(path.join(files, 'site-appraisal.pdf'));
      await page.getByRole('button', { name: 'Submit request' }).dblclick();

      const alert = page.getByRole('alert');
      await expect(alert).toHaveText(message);
      await expect(alert).toBeFocused();
      expect(posts).toBe(1);
      await expect(page.getByLabel('Project name')).toHaveValue('Harbour Quay Phase 2');
      await expect(page.getByRole('button', { name: 'Submit request' })).toBeEnabled();
      await expectNoAxeViolations(page);
    });
  }

  test('no connection: a plain message takes focus', async ({ hub: page }) => {
    await page.route(DUE_DILIGENCE_POST, (route) => route.abort('internetdisconnected'));
    await page.goto('/demo/due-diligence');
    await fillRequired(page);
    await page.getByRole('button', { name: 'Submit request' }).click();

    const alert = page.getByRole('alert');
    await expect(alert).toContainText('the connection to our server failed');
    await expect(alert).toBeFocused();
    await expect(page.getByLabel('Project description')).toHaveValue('Forty-two apartments.');
  });

  test('leaving the page mid-upload asks first, then cancels it: no thank-you page later, the draft is kept', async ({
    hub: page,
  }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(DUE_DILIGENCE_POST, async (route) => {
      await held;
      await route
        .fulfill({ status: 303, headers: { location: '/demo/due-diligence?success=1' } })
        .catch(() => {});
    });
    await page.goto('/demo/due-diligence');
    await fillRequired(page);
    await page.getByRole('button', { name: 'Submit request' }).click();
    await expect(page.getByText('Sending…')).toBeVisible();

    // Asked first (nineteenth session): told to stay, the page stays with its upload on its way.
    const asked: string[] = [];
    page.once('dialog', (dialog) => {
      asked.push(dialog.message());
      void dialog.dismiss();
    });
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await expect
      .poll(() => asked)
      .toEqual([
        'Your request is still being sent. If you leave this page now, it will not be sent. Leave the page?',
      ]);
    await expect(page).toHaveURL(/\/demo\/due-diligence$/);
    await expect(page.getByText('Sending…')).toBeVisible();

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('link', { name: 'Dashboard' }).first().click();
    await expect(page).toHaveURL(/\/demo\/dashboard$/);
    // The dashboard drawn: the form has gone (the address changes before React swaps the page).
    await expect(
      page.getByRole('heading', { level: 1, name: 'Request Due Diligence' }),
    ).toHaveCount(0);
    release();
    await page.waitForTimeout(1_000);
    await expect(page).toHaveURL(/\/demo\/dashboard$/);

    await page.getByRole('link', { name: 'Request Due Diligence' }).first().click();
    await expect(page).toHaveURL(/\/demo\/due-diligence$/);
    await expect(page.getByLabel('Project name')).toHaveValue('Harbour Quay Phase 2');
  });
});

test.describe('the login form refused', () => {
  async function fillLogin(page: Page) {
    const user = newUser('hostile');
    await page.goto('/demo/login');
    await page.getByLabel('First name').fill(user.first_name);
    await page.getByLabel('Last name').fill(user.last_name);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Phone').fill(user.phone);
    return user;
  }

  test("429: the API's message takes focus, the details stay", async ({ page }) => {
    const message = 'Too many login attempts. Please wait a few minutes and try again.';
    await page.route(/\/api\/demo\/login$/, (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json; charset=utf-8',
        headers: { 'retry-after': '900' },
        body: JSON.stringify({ error: message }),
      }),
    );
    const user = await fillLogin(page);
    await page.getByRole('button', { name: 'Continue' }).click();

    const alert = page.getByRole('alert');
    await expect(alert).toHaveText(message);
    await expect(alert).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveValue(user.email);
    await expectNoAxeViolations(page);
  });

  test("the server down: 'An error occurred', never the browser's 'Failed to fetch'", async ({
    page,
  }) => {
    await page.route(/\/api\/demo\/login$/, (route) => route.abort('connectionrefused'));
    const user = await fillLogin(page);
    await page.getByRole('button', { name: 'Continue' }).click();

    const alert = page.getByRole('alert');
    await expect(alert).toHaveText('An error occurred');
    await expect(alert).toBeFocused();
    await expect(page.getByLabel('Email')).toHaveValue(user.email);
  });
});

test('a search address with %00 searches without the NUL instead of showing the API refusal', async ({
  hub: page,
}) => {
  await page.goto('/demo/search-results?search=warranty%00');
  await expect(page.getByRole('heading', { level: 1, name: 'Search Results' })).toBeVisible();
  await expect(page.getByText('Building and structural warranties').first()).toBeVisible();
  await expect(page.getByText(/NUL character|query parameter/)).toHaveCount(0);
});

test('a busy Calculate button keeps keyboard focus, and pressing it again sends nothing more', async ({
  hub: page,
}) => {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let posts = 0;
  await page.route(/\/api\/demo\/warranty$/, async (route) => {
    posts += 1;
    await held;
    await route.continue();
  });
  await page.goto('/demo/calculator/building-warranty');
  const calculate = page.getByRole('button', { name: 'Calculate' });
  await calculate.focus();
  await page.keyboard.press('Enter');
  // While the quote is being sent the button is busy, yet focus stays on it (a disabled button drops it).
  await expect(calculate).toHaveAttribute('aria-busy', 'true');
  await expect(calculate).toBeFocused();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Space');
  release();
  await expect(page.getByText(/^Your reference: BW-\d{4}-\d{6}$/)).toBeVisible();
  await expect(calculate).toBeFocused();
  expect(posts).toBe(1);
});
