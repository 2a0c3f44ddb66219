import type { Page, Request } from '@playwright/test';

import { expect, test } from './fixtures';

/** The activity posts the page makes from now on, as `action item` strings. */
function recordActivities(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    if (request.method() !== 'POST' || !request.url().endsWith('/api/demo/activity')) return;
    const body = request.postDataJSON() as { action: string; item: string };
    seen.push(`${body.action} ${body.item}`);
  });
  return seen;
}

test('every page records a view, every search a search, and the API accepts them', async ({
  hub: page,
}) => {
  const seen = recordActivities(page);
  const accepted = page.waitForResponse(
    (response) => response.url().endsWith('/api/demo/activity') && response.status() === 204,
  );

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Information Hub' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();
  await accepted;

  await nav.getByRole('link', { name: 'Sample Report' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Sample Report' })).toBeVisible();

  const box = page.getByRole('searchbox', { name: 'Search the hub' });
  await box.fill('terrorism');
  await box.press('Enter');
  await expect(page.getByRole('heading', { level: 1, name: 'Search Results' })).toBeVisible();

  await expect
    .poll(() => seen)
    .toEqual(
      expect.arrayContaining([
        'view info',
        'view sample-report',
        'view search-results',
        'search terrorism',
      ]),
    );
});
