import type { Page } from '@playwright/test';

import { expect, loginMagicLink, loginOpen, newUser, test } from './fixtures';

/**
 * The browser's history as an unlucky user meets it: Back and Forward across logging in and out, and across two
 * clients in one tab. A page that redirects (the login page while logged in, a hub page after logging out) takes
 * the place of its entry, so Back always gets past it, and never shows a hub after Log out.
 */
const BEFORE = 'data:text/html,<title>Before the portal</title><p>Before the portal</p>';

/** Presses Back until the page before the portal is reached (at most `limit` times); the portal URLs passed. */
async function backToBefore(page: Page, limit = 6): Promise<string[]> {
  const passed: string[] = [];
  for (let i = 0; i < limit && !page.url().startsWith('data:'); i += 1) {
    await page.goBack();
    // The entry's own page load and its loaders' redirect, if any, have run.
    await page.waitForLoadState('networkidle');
    passed.push(page.url());
  }
  return passed;
}

test('Back after Log out passes the hub’s pages, showing none of them, to the page before the portal', async ({
  page,
}) => {
  await page.goto(BEFORE);
  const user = await loginOpen(page, 'demo', newUser('back-out'));
  await page.goto('/demo/info');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Information Hub');
  await page.getByRole('link', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/demo\/login$/);

  const passed = await backToBefore(page);
  expect(page.url(), `Back went ${passed.join(' → ')}`).toMatch(/^data:/);
  await expect(page.getByText('Before the portal')).toBeVisible();
  await page.goForward();
  await expect(page).toHaveURL(/\/demo\/(login|dashboard)$/);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expect(page.getByText(user.last_name)).toHaveCount(0);
});

test('Back from a hub entered by a login link passes the login pages to the page before the portal', async ({
  page,
}) => {
  await page.goto(BEFORE);
  await loginMagicLink(page, 'northbank', newUser('back-link'));
  await page.goto('/northbank/info');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Information Hub');

  const passed = await backToBefore(page);
  expect(page.url(), `Back went ${passed.join(' → ')}`).toMatch(/^data:/);
});

test('a hub page restored from the back/forward cache after Log out is loaded again and shows no one', async ({
  page,
}) => {
  const user = await loginOpen(page, 'demo', newUser('bfcache'));
  await page.goto('/demo/info');
  await expect(page.getByText(`Welcome, ${user.first_name}`)).toBeVisible();
  // Logged out elsewhere while this page slept in the cache (Playwright's Chromium keeps no page there, so the
  // restore is the event the browser fires as it shows one again).
  const out = await page.request.get('/api/demo/logout', { maxRedirects: 0 });
  expect(out.status()).toBe(303);
  await page.evaluate(() => {
    window.dispatchEvent(new PageTransitionEvent('pageshow', { persisted: true }));
  });
  await expect(page).toHaveURL(/\/demo\/login$/);
  await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
  await expect(page.getByText(user.last_name)).toHaveCount(0);
});

test('Log out pressed mid-upload asks first: staying keeps the session and the draft, going logs out once asked', async ({
  page,
}) => {
  await loginOpen(page, 'demo', newUser('out-mid-upload'));
  await page.goto('/demo/due-diligence');
  await page.getByLabel('Project name').fill('Quayside Stay');
  await page.getByLabel('Project address').fill('1 Harbour Road');
  await page.getByLabel('City and postcode').fill('Bristol BS1 4XX');
  await page.getByLabel('Project description').fill('Kept when the user stays.');
  await page.locator('input[type=file]').setInputFiles({
    name: 'plan.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
  });
  // The upload is on its way for as long as the test needs.
  await page.route('**/api/demo/due-diligence', () => undefined);
  await page.getByRole('button', { name: 'Submit request' }).click();
  await expect(page.getByRole('button', { name: /Sending|Submit request/ })).toBeDisabled();

  const dialogs: string[] = [];
  page.once('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.getByRole('link', { name: 'Log out' }).click();
  await expect.poll(() => dialogs.length).toBe(1);
  expect(dialogs[0]).toBe(
    'confirm: Your request is still being sent. If you leave this page now, it will not be sent. Leave the page?',
  );
  await expect(page).toHaveURL(/\/demo\/due-diligence$/);
  const me = (await (await page.request.get('/api/demo')).json()) as { logged_in: boolean };
  expect(me.logged_in, 'still logged in').toBe(true);
  // The draft is still kept in the tab: a reload (which gives up the upload, never let through) shows it.
  page.once('dialog', (dialog) => void dialog.accept());
  await page.reload();
  await expect(page.getByLabel('Project name')).toHaveValue('Quayside Stay');
  await expect(page.getByLabel('Project description')).toHaveValue('Kept when the user stays.');

  // Going on logs out, and the browser does not ask a second time.
  await page.locator('input[type=file]').setInputFiles({
    name: 'plan.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.4\n%%EOF\n'),
  });
  await page.getByRole('button', { name: 'Submit request' }).click();
  await expect(page.getByRole('button', { name: /Sending|Submit request/ })).toBeDisabled();
  const asked: string[] = [];
  page.on('dialog', (dialog) => {
    asked.push(dialog.type());
    void dialog.accept();
  });
  await page.getByRole('link', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/demo\/login$/);
  expect(asked).toEqual(['confirm']);
  expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
});
