import { expect, saveScreenshot, test, VIEWPORTS } from './fixtures';

type ViewportName = keyof typeof VIEWPORTS;

/**
 * Screenshots of the main pages at desktop and phone widths, kept as CI artefacts (artifacts/screenshots). `docs`
 * names the widths whose shot also illustrates docs/portal.md (refreshed with DOCS_SCREENSHOTS=1).
 */
const PAGES: { name: string; path: string; heading: string; docs: ViewportName[] }[] = [
  { name: 'dashboard', path: '/demo/dashboard', heading: 'Dashboard', docs: ['desktop', 'phone'] },
  { name: 'information-hub', path: '/demo/info', heading: 'Information Hub', docs: ['desktop'] },
  {
    name: 'search-results',
    path: '/demo/search-results?search=warranty',
    heading: 'Search Results',
    docs: [],
  },
  { name: 'sample-report', path: '/demo/sample-report', heading: 'Sample Report', docs: [] },
  {
    name: 'due-diligence',
    path: '/demo/due-diligence',
    heading: 'Request Due Diligence',
    docs: [],
  },
];

for (const viewportName of Object.keys(VIEWPORTS) as ViewportName[]) {
  const viewport = VIEWPORTS[viewportName];

  test(`screenshots at ${viewportName} width`, async ({ hub: page, browser, baseURL }) => {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const { name, path, heading, docs } of PAGES) {
      await page.goto(path);
      await expect(
        page.getByRole('heading', { level: 1, name: heading, exact: true }),
      ).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      await saveScreenshot(page, `${name}-${viewportName}`, {
        forDocs: docs.includes(viewportName),
      });
    }

    await page.goto('/demo/dashboard');
    await page.getByRole('region', { name: 'Case Studies' }).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/demo\/article\?/);
    await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty();
    await saveScreenshot(page, `article-${viewportName}`);

    if (viewportName === 'phone') {
      await page.goto('/demo/dashboard');
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
      await saveScreenshot(page, 'menu-phone', { forDocs: true });
      await page.keyboard.press('Escape');
    }

    // The login page, as someone without a session sees it.
    const visitor = await browser.newPage({ viewport, baseURL, reducedMotion: 'reduce' });
    await visitor.goto('/demo/login');
    await expect(visitor.getByRole('button', { name: 'Continue' })).toBeVisible();
    await saveScreenshot(visitor, `login-${viewportName}`, { forDocs: true });
    await visitor.close();
  });
}
