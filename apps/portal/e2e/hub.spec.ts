import { expect, expectNoAxeViolations, test, VIEWPORTS } from './fixtures';

/** Every page of the hub and the heading it shows (spec §2). */
const PAGES = [
  { path: '/demo/dashboard', heading: 'Dashboard' },
  { path: '/demo/info', heading: 'Information Hub' },
  { path: '/demo/search-results?search=warranty', heading: 'Search Results' },
  { path: '/demo/sample-report', heading: 'Sample Report' },
  { path: '/demo/insurance-framework', heading: 'Insurance Framework' },
  { path: '/demo/insurance-guide', heading: 'Development Insurance Guide' },
  { path: '/demo/calculator/building-warranty', heading: 'Building Warranty Cost Calculator' },
  { path: '/demo/calculator/contractors-all-risks', heading: 'Contractors All Risks Calculator' },
  { path: '/demo/calculator/btr-warranty', heading: 'BTR Warranty + Loss of Rent Calculator' },
  { path: '/demo/due-diligence', heading: 'Request Due Diligence' },
] as const;

test.describe('every page', () => {
  for (const { path, heading } of PAGES) {
    test(`${path} shows '${heading}' and axe finds nothing`, async ({ hub: page }) => {
      await page.goto(path);
      await expect(
        page.getByRole('heading', { level: 1, name: heading, exact: true }),
      ).toBeVisible();
      await expect(page.getByRole('status').filter({ hasText: /^Loading/ })).toHaveCount(0);
      await expectNoAxeViolations(page);
    });
  }

  test('an article shows its heading and axe finds nothing', async ({ hub: page }) => {
    await page.getByRole('region', { name: 'Case Studies' }).getByRole('link').first().click();
    await expect(page).toHaveURL(/\/demo\/article\?id=[^&]+&type=case_study$/);
    await expect(page.getByRole('heading', { level: 1 })).not.toBeEmpty();
    await expectNoAxeViolations(page);
  });

  test('the login, 404 and success pages have no axe violations', async ({ page }) => {
    await page.goto('/demo/login');
    await expect(page.getByRole('button', { name: 'Continue' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.goto('/demo/nowhere/at/all');
    await expect(page.getByRole('heading', { name: '404 Not Found' })).toBeVisible();
    await expectNoAxeViolations(page);
  });
});

test.describe('layout', () => {
  test('the sidebar has the spec entries, and the current one is bold with aria-current', async ({
    hub: page,
  }) => {
    const nav = page.getByRole('navigation', { name: 'Main' });
    for (const name of [
      'Dashboard',
      'Insurance Framework',
      'Development Insurance Guide',
      'Information Hub',
      'Sample Report',
      'Building Warranty Calculator',
      'Contractors All Risks Calculator',
      'BTR Warranty + Loss of Rent Calculator',
      'Request Due Diligence',
    ]) {
      await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    }
    // The groups are labels, not links.
    await expect(nav.getByText('Cost Calculator', { exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Cost Calculator', exact: true })).toHaveCount(0);

    const current = nav.getByRole('link', { name: 'Dashboard' });
    await expect(current).toHaveAttribute('aria-current', 'page');
    expect(
      Number(await current.evaluate((link) => getComputedStyle(link).fontWeight)),
    ).toBeGreaterThanOrEqual(700);

    await nav.getByRole('link', { name: 'Information Hub' }).click();
    await expect(page).toHaveURL(/\/demo\/info$/);
    await expect(nav.getByRole('link', { name: 'Information Hub' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await expect(current).not.toHaveAttribute('aria-current', 'page');
  });

  test('the Contact the team card links the provider by telephone and e-mail', async ({
    hub: page,
  }) => {
    const card = page.getByRole('region', { name: 'Contact the team' }).first();
    const tel = card.locator('a[href^="tel:"]');
    const mail = card.locator('a[href^="mailto:"]');
    await expect(tel).toHaveCount(1);
    await expect(mail).toHaveCount(1);
    await expect(tel).toHaveText(/\d/);
    await expect(mail).toHaveAttribute('href', `mailto:${(await mail.textContent()) ?? ''}`);
  });

  test('the footer shows the due diligence banner, 243px tall, and Get in Touch loads the page', async ({
    hub: page,
  }) => {
    const banner = page.getByRole('heading', { name: 'Request Insurance Due Diligence Report' });
    await expect(banner).toBeVisible();
    const height = await banner.evaluate(
      (heading) => heading.parentElement?.getBoundingClientRect().height,
    );
    expect(height).toBe(243);

    // A full page navigation: the document is loaded anew.
    await page.evaluate(() => ((window as unknown as { marker: boolean }).marker = true));
    await page.getByRole('link', { name: 'Get in Touch' }).click();
    await expect(page).toHaveURL(/\/demo\/due-diligence$/);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Request Due Diligence' }),
    ).toBeVisible();
    expect(
      await page.evaluate(() => (window as unknown as { marker?: boolean }).marker),
    ).toBeUndefined();
    // The footer banner is hidden on the due-diligence page only.
    await expect(
      page.getByRole('heading', { name: 'Request Insurance Due Diligence Report' }),
    ).toHaveCount(0);
  });

  test('right-click is disabled on the hub', async ({ hub: page }) => {
    const prevented = await page.evaluate(() => {
      const event = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
      document.querySelector('main')?.dispatchEvent(event);
      return event.defaultPrevented;
    });
    expect(prevented).toBe(true);
  });

  test('a new path scrolls the page back to the top', async ({ hub: page }) => {
    await page.goto('/demo/info');
    await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page
      .getByRole('navigation', { name: 'Main' })
      .getByRole('link', { name: 'Sample Report' })
      .click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sample Report' })).toBeVisible();
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
  });

  test('the skip link moves focus to the main content', async ({ hub: page }) => {
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
  });

  test('on a phone the sidebar hides behind a labelled Menu button that opens it as a dialog', async ({
    hub: page,
  }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    const menu = page.getByRole('button', { name: 'Menu', exact: true });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await menu.click();

    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await expect(dialog).toBeVisible();
    // The page behind the modal drawer is inert, so the button is found by its attributes here.
    await expect(page.locator('header button[aria-haspopup="dialog"]')).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(dialog.getByRole('button', { name: 'Close menu' })).toBeFocused();
    await expectNoAxeViolations(page);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(menu).toBeFocused();

    await menu.click();
    await dialog.getByRole('link', { name: 'Information Hub' }).click();
    await expect(page).toHaveURL(/\/demo\/info$/);
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();
  });

  test('the drawer closes when the window becomes wide enough for the sidebar, and focus goes to the same entry there', async ({
    hub: page,
  }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Menu' });
    await dialog.getByRole('link', { name: 'Sample Report' }).focus();

    // A tablet turned to landscape: the Menu button is gone, so a drawer left open held the page inert.
    await page.setViewportSize(VIEWPORTS.desktop);
    await expect(dialog).toBeHidden();
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Sample Report' })).toBeFocused();
    await nav.getByRole('link', { name: 'Information Hub' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Information Hub' })).toBeVisible();

    // With the focus on Close menu (no entry of the sidebar), it goes to the main area.
    await page.setViewportSize(VIEWPORTS.phone);
    await page.getByRole('button', { name: 'Menu', exact: true }).click();
    await expect(dialog.getByRole('button', { name: 'Close menu' })).toBeFocused();
    await page.setViewportSize(VIEWPORTS.desktop);
    await expect(dialog).toBeHidden();
    await expect(page.locator('main')).toBeFocused();
  });
});
