import { VIEWPORTS, expect, loginOpen, slowDown, test, trackLayoutShifts } from './fixtures';

test.describe('dashboard', () => {
  test('shows the video, the four Where to start cards and the article rows', async ({
    hub: page,
  }) => {
    const video = page.locator('main video');
    await expect(video).toHaveAttribute('poster', /.+/);
    await expect(video.locator('track[kind="captions"]')).toHaveCount(1);

    const start = page.getByRole('region', { name: 'Where to start' });
    const cards = {
      'Information hub': /\/demo\/info$/,
      'Insurance guide': /\/demo\/insurance-guide$/,
      'Insurance framework': /\/demo\/insurance-framework$/,
      'Sample report': /\/demo\/sample-report$/,
    };
    for (const [name, href] of Object.entries(cards)) {
      await expect(start.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
    }
    await expect(page.getByRole('heading', { level: 2, name: 'Case Studies' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'Insights' })).toBeVisible();
    await expect(
      page.getByRole('region', { name: 'Insights' }).getByRole('link').first(),
    ).toHaveAttribute('href', /\/demo\/article\?id=[^&]+&type=insight$/);
  });
});

test.describe('information hub', () => {
  test('opens one topic at a time, and the open one can be collapsed', async ({ hub: page }) => {
    await page.goto('/demo/info');
    const triggers = page.getByRole('main').getByRole('button', { expanded: false });
    await expect(triggers.first()).toBeVisible();
    const first = page
      .getByRole('main')
      .getByRole('heading', { level: 2 })
      .nth(0)
      .getByRole('button');
    const second = page
      .getByRole('main')
      .getByRole('heading', { level: 2 })
      .nth(1)
      .getByRole('button');

    await first.click();
    await expect(first).toHaveAttribute('aria-expanded', 'true');
    const firstPanel = page.locator(`#${await first.getAttribute('aria-controls')}`);
    await expect(firstPanel).toBeVisible();
    await expect(firstPanel.locator('p').first()).not.toBeEmpty();

    await second.click();
    await expect(second).toHaveAttribute('aria-expanded', 'true');
    await expect(first).toHaveAttribute('aria-expanded', 'false');

    await second.click();
    await expect(second).toHaveAttribute('aria-expanded', 'false');
    await expect(page.getByRole('main').getByRole('button', { expanded: true })).toHaveCount(0);
  });

  test('a topic with a pro tip shows a Pro Tip block', async ({ hub: page }) => {
    await page.goto('/demo/info');
    const buttons = page.getByRole('main').getByRole('heading', { level: 2 }).getByRole('button');
    await expect(buttons.first()).toBeVisible();
    const count = await buttons.count();
    let found = false;
    for (let index = 0; index < count && !found; index += 1) {
      await buttons.nth(index).click();
      const panel = page.locator(`#${await buttons.nth(index).getAttribute('aria-controls')}`);
      found = (await panel.getByText('Pro Tip', { exact: true }).count()) > 0;
    }
    expect(found).toBe(true);
  });
});

test.describe('search', () => {
  test('Enter in the header box shows the results; the box keeps the query there and clears elsewhere', async ({
    hub: page,
  }) => {
    const box = page.getByRole('searchbox', { name: 'Search the hub' });
    await box.press('Enter');
    await expect(page).toHaveURL(/\/demo\/dashboard$/);

    await box.fill('warranty');
    await box.press('Enter');
    await expect(page).toHaveURL(/\/demo\/search-results\?search=warranty$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Search Results' })).toBeVisible();
    await expect(box).toHaveValue('warranty');
    await expect(page.getByRole('heading', { level: 2, name: 'Information' })).toBeVisible();
    await expect(page.getByText('No results found')).toHaveCount(0);

    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Dashboard' })
      .click();
    await expect(box).toHaveValue('');
  });

  test("a search that matches nothing says 'No results found'", async ({ hub: page }) => {
    const box = page.getByRole('searchbox', { name: 'Search the hub' });
    await box.fill('zzqxv-nothing-matches-this');
    await box.press('Enter');
    await expect(page.getByText('No results found', { exact: true })).toBeVisible();
    await expect(page.getByRole('main').getByRole('heading', { level: 2 })).toHaveCount(0);
    await expect(page.getByRole('status').filter({ hasText: 'No results found for' })).toHaveText(
      'No results found for “zzqxv-nothing-matches-this”',
    );
  });

  // Found by the fifteenth session's accessibility probe: a new search from the box keeps focus in the box, and
  // the results were added to the page in silence (only an empty result was announced).
  test('what a search found is told in a status region, for a search from the results page too', async ({
    hub: page,
  }) => {
    const box = page.getByRole('searchbox', { name: 'Search the hub' });
    await box.fill('warranty');
    await box.press('Enter');
    const found = page.getByRole('status').filter({ hasText: /results? for “/ });
    await expect(found).toHaveText(/^\d+ results? for “warranty”$/);
    await box.fill('liability');
    await box.press('Enter');
    await expect(page).toHaveURL(/search=liability$/);
    await expect(box).toBeFocused();
    await expect(found).toHaveText(/^\d+ results? for “liability”$/);
  });

  // Found by the twenty-fifth session's portal probe: the results arrived under a "Searching…" line and pushed the
  // footer's banner down from where they were to go (a layout shift of 0.48 on a phone, 0.07-0.12 at 1280 px), on
  // a results page opened directly and at every search from the box.
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`the results page does not move as the results arrive (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const shifts = await trackLayoutShifts(page);
      await loginOpen(page);
      await slowDown(page, /\/api\/demo\/content\?search=/);
      const box = page.getByRole('searchbox', { name: 'Search the hub' });
      const found = page.getByRole('status').filter({ hasText: /results? for “/ });
      for (const text of ['warranty', 'liability']) {
        await shifts.reset();
        await box.fill(text);
        await box.press('Enter');
        await expect(page).toHaveURL(new RegExp(`search=${text}$`));
        await expect(found).toHaveText(new RegExp(`^\\d+ results? for “${text}”$`));
        await page.waitForTimeout(500);
        expect(await shifts.total(), text).toBeLessThan(0.01);
      }
      // Opened directly, and asked for once.
      const asked: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/content?search=')) asked.push(request.url());
      });
      // (A new document: the count starts from zero with it.)
      await page.goto('/demo/search-results?search=insurance');
      await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toBeVisible();
      await page.waitForTimeout(500);
      expect(await shifts.total()).toBeLessThan(0.01);
      expect(asked).toHaveLength(1);
    });
  }
});

// Found by the twenty-fifth session's probe of its own change: a search that failed showed the results of the same
// search made earlier, as if current, with no error; a late one was given up at the page's wait and asked anew.
test.describe('search answers that fail or come late', () => {
  test('a failed search says so with Retry, not the same search’s earlier results', async ({
    hub: page,
  }) => {
    const box = page.getByRole('searchbox', { name: 'Search the hub' });
    const found = page.getByRole('status').filter({ hasText: /results? for “/ });
    for (const text of ['warranty', 'liability']) {
      await box.fill(text);
      await box.press('Enter');
      await expect(found).toHaveText(new RegExp(`results? for “${text}”$`));
    }
    await page.route('**/api/demo/content?search=warranty', (route) =>
      route.fulfill({ status: 500, contentType: 'application/json', body: '{"error":"Boom"}' }),
    );
    await box.fill('warranty');
    await box.press('Enter');
    await expect(page).toHaveURL(/search=warranty$/);
    await expect(page.getByRole('alert').getByRole('button', { name: 'Retry' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('Boom');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { name: 'Case Studies' })).toHaveCount(0);
    await expect(main.getByRole('heading', { name: 'Information' })).toHaveCount(0);
  });

  test('a late answer is taken up by the page when it comes, asked for once', async ({
    hub: page,
  }) => {
    const asked: string[] = [];
    await page.route('**/api/demo/content?search=**', async (route) => {
      asked.push(route.request().url());
      await new Promise((resolve) => setTimeout(resolve, 5_500));
      await route.continue();
    });
    const box = page.getByRole('searchbox', { name: 'Search the hub' });
    await box.fill('insurance');
    await box.press('Enter');
    // Shown at the loader's wait (4 s), searching until the answer comes.
    await expect(page).toHaveURL(/search=insurance$/, { timeout: 6_000 });
    await expect(
      page.getByRole('status').filter({ hasText: /results? for “insurance”$/ }),
    ).toBeVisible({
      timeout: 10_000,
    });
    expect(asked).toHaveLength(1);
  });
});

test.describe('article', () => {
  test('shows image, title and body, related items on wide screens, and Go Back returns', async ({
    hub: page,
  }) => {
    const card = page.getByRole('region', { name: 'Case Studies' }).getByRole('link').first();
    const title = (await card.textContent()) ?? '';
    await card.click();
    await expect(page).toHaveURL(/\/demo\/article\?id=[^&]+&type=case_study$/);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.locator('main article img').first()).toBeVisible();
    const related = page.getByRole('region', { name: 'You may also like…' });
    await expect(related).toBeVisible();

    await page.setViewportSize({ width: 800, height: 800 });
    await expect(related).toBeHidden();

    await page.getByRole('button', { name: 'Go Back' }).click();
    await expect(page).toHaveURL(/\/demo\/dashboard$/);
  });

  // Found by the twenty-fifth session's portal probe: the image had no size until it loaded, and the title and the
  // article dropped 166 px when it came.
  test('the article does not move as its image arrives', async ({ page }) => {
    const shifts = await trackLayoutShifts(page);
    await loginOpen(page);
    await slowDown(page, /\/media\/demo\/[^/]+\.svg$/, 1_000);
    await page.goto('/demo/article?id=harbour-quay-apartments&type=case_study');
    const image = page.locator('main article img').first();
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).complete)).toBe(true);
    await page.waitForTimeout(500);
    expect(await shifts.total()).toBeLessThan(0.01);
  });

  // Found by the twenty-fourth session's portal probe: the new article kept the old one's scroll position, and
  // focus fell to the document with the link that had it.
  test('a related article opened from an article is a new page: at its top, focus in the main area', async ({
    hub: page,
  }) => {
    await page.setViewportSize({ width: 1280, height: 400 });
    await page.getByRole('region', { name: 'Case Studies' }).getByRole('link').first().click();
    const link = page.getByRole('region', { name: 'You may also like…' }).getByRole('link').first();
    await expect(link).toBeVisible();
    const href = (await link.getAttribute('href')) ?? '';
    // Read down to the end of the article, then go on from the related list by keyboard.
    await page.evaluate(() =>
      window.scrollTo({ top: document.body.scrollHeight, behavior: 'instant' }),
    );
    await link.evaluate((element) => (element as HTMLElement).focus({ preventScroll: true }));
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.keyboard.press('Enter');
    await expect.poll(() => new URL(page.url()).pathname + new URL(page.url()).search).toBe(href);
    await expect(page.locator('main')).toBeFocused();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('an unknown article says so', async ({ hub: page }) => {
    await page.goto('/demo/article?id=no-such-article&type=insight');
    await expect(page.getByRole('heading', { level: 1, name: 'Article not found' })).toBeVisible();
  });
});

test.describe('sample report', () => {
  test('embeds the PDF after a loading placeholder and offers a download', async ({
    hub: page,
  }) => {
    await page.goto('/demo/sample-report');
    const frame = page.locator('main iframe');
    await expect(frame).toHaveAttribute('src', '/sample-report.pdf');
    await expect(
      page.getByRole('status').filter({ hasText: 'Loading the sample report' }),
    ).toHaveCount(0);
    await expect(frame).toBeVisible();
    const download = page.getByRole('link', { name: 'Download the sample report (PDF)' });
    const response = await page.request.get((await download.getAttribute('href')) ?? '');
    expect(response.status()).toBe(200);
    expect(response.headers()['content-type']).toContain('application/pdf');
  });
});

// Found by the twenty-seventh session's probe: results that come after the loader's wait (4 s) arrived under
// "Searching…" and pushed the footer's banner down (a layout shift of 0.40 on a phone, 0.07-0.13 at 1280 px), on a
// results page opened directly too. An answer in time holds no place (the test above).
test.describe('search answers later than the page’s wait', () => {
  for (const [name, viewport] of Object.entries(VIEWPORTS)) {
    test(`the results page does not move as late results arrive (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      const shifts = await trackLayoutShifts(page);
      await loginOpen(page);
      await slowDown(page, /\/api\/demo\/content\?search=/, 5_000);
      const box = page.getByRole('searchbox', { name: 'Search the hub' });
      const found = page.getByRole('status').filter({ hasText: /results? for “|No results found/ });
      for (const text of ['warranty', 'zzqqxx', 'liability']) {
        await box.fill(text);
        await box.press('Enter');
        await expect(page).toHaveURL(new RegExp(`search=${text}$`), { timeout: 6_000 });
        await expect(page.getByText('Searching…')).toBeVisible();
        await shifts.reset();
        await expect(found).toHaveText(new RegExp(`“${text}”$`), { timeout: 10_000 });
        await page.waitForTimeout(500);
        expect(await shifts.total(), text).toBeLessThan(0.01);
        if (text === 'zzqqxx') {
          // Found by the twenty-eighth session: the place held for the late answer stayed a window high when it
          // found nothing, leaving about a window of empty space under "No results found" before the footer. The
          // footer now comes right under the notice (or under the sidebar's contact card at 1280 px, as in time).
          const notice = page.getByRole('main').getByText('No results found', { exact: true });
          const space = await notice.evaluate((element) => {
            const sidebar =
              document.querySelector('main')?.previousElementSibling?.firstElementChild;
            const above = Math.max(
              element.getBoundingClientRect().bottom,
              sidebar?.getBoundingClientRect().bottom ?? 0,
            );
            return (document.querySelector('footer')?.getBoundingClientRect().top ?? 0) - above;
          });
          expect(space, 'space over the footer').toBeLessThan(100);
        }
      }
      await shifts.reset();
      await page.goto('/demo/search-results?search=insurance');
      await expect(page.getByRole('main').getByRole('heading', { level: 2 }).first()).toBeVisible({
        timeout: 10_000,
      });
      await page.waitForTimeout(500);
      expect(await shifts.total(), 'opened directly').toBeLessThan(0.01);
    });
  }
});

// Found by the twenty-seventh session's probe: a link clicked twice (or Enter pressed twice in the search box)
// while its page was on its way started the navigation anew, giving up the first one's request and making it again.
test('a link clicked twice or a search sent twice while its page is on its way asks for its answer once', async ({
  hub: page,
}) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname === '/api/demo/content') asked.push(url.search);
  });
  await slowDown(page, /\/api\/demo\/content(\?|$)/, 2_000);
  const link = page
    .getByRole('navigation', { name: 'Main' })
    .getByRole('link', { name: 'Information Hub' });
  await link.dblclick();
  await page.waitForTimeout(300);
  await link.focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/demo\/info$/);
  await expect(
    page.getByRole('button', { name: /Building and structural warranties/ }),
  ).toBeVisible();
  expect(asked).toEqual(['']);
  // One entry in the history: Back is the dashboard.
  await page.goBack();
  await expect(page).toHaveURL(/\/demo\/dashboard$/);
  await expect(page.getByRole('region', { name: 'Case Studies' })).toBeVisible();

  asked.length = 0;
  const box = page.getByRole('searchbox', { name: 'Search the hub' });
  await box.fill('warranty');
  await box.press('Enter');
  await page.waitForTimeout(300);
  await box.press('Enter');
  await expect(page).toHaveURL(/search=warranty$/);
  await expect(
    page.getByRole('status').filter({ hasText: /results? for “warranty”$/ }),
  ).toBeVisible();
  expect(asked).toEqual(['?search=warranty']);
});
