import { expect, saveScreenshot, SCREENSHOT_DIR, test, VIEWPORTS } from './fixtures';

/** Screenshots of the main pages at desktop and phone widths, kept as CI artefacts (artifacts/screenshots). */
const PAGES = [
  { name: 'dashboard', path: '/demo/dashboard', heading: 'Dashboard' },
  { name: 'information-hub', path: '/demo/info', heading: 'Information Hub' },
  {
    name: 'search-results',
    path: '/demo/search-results?search=warranty',
    heading: 'Search Results',
  },
  { name: 'sample-report', path: '/demo/sample-report', heading: 'Sample Report' },
  { name: 'due-diligence', path: '/demo/due-diligence', heading: 'Request Due Diligence' },
] as const;

for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
  test(`screenshots at ${viewportName} width`, async ({ hub: page, browser, baseURL }) => {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    for (const { name, path, heading } of PAGES) {
      await page.goto(path);
      await expect(
        page.getByRole('heading', { level: 1, name: heading, exact: true }),
      ).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      await saveScreenshot(page, `${name}-${viewportName}`);
    }
    if (viewportName === 'phone') {
      await page.goto('/demo/dashboard');
      await page.getByRole('button', { name: 'Menu', exact: true }).click();
      await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/menu-phone.png` });
      await page.keyboard.press('Escape');
    }
    // The login page, as someone without a session sees it.
    const visitor = await browser.newPage({ viewport, baseURL, reducedMotion: 'reduce' });
    await visitor.goto('/demo/login');
    await expect(visitor.getByRole('button', { name: 'Continue' })).toBeVisible();
    await saveScreenshot(visitor, `login-${viewportName}`);
    await visitor.close();
  });
}
