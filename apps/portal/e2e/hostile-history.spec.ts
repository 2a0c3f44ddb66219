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
