import { expect, expectNoAxeViolations, saveScreenshot, test, VIEWPORTS } from './fixtures';

test.describe('Development Insurance Guide', () => {
  test('the legend shows the four tags and the matrix the 15 insurances by stage', async ({
    hub: page,
  }) => {
    await page.goto('/demo/insurance-guide');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Development Insurance Guide' }),
    ).toBeVisible();

    const legend = page.getByRole('region', { name: 'Who buys the insurance' });
    const tags = legend.locator('[data-tag]');
    await expect(tags).toHaveText([
      'Property Developer',
      'Contractor',
      'Either or Joint Policy',
      'Both needed',
    ]);
    // Not colour alone: each tag also has its own shape.
    const shapes = await tags.evaluateAll((elements) =>
      elements.map((element) => element.getAttribute('data-shape')),
    );
    expect(new Set(shapes).size).toBe(4);
    const colours = await tags.evaluateAll((elements) =>
      elements.map((element) => getComputedStyle(element).backgroundColor),
    );
    expect(new Set(colours).size).toBe(4);

    const matrix = page.getByRole('table', { name: 'Insurances by development stage' });
    await expect(matrix.getByRole('columnheader')).toHaveText([
      'Insurance',
      'Site Acquisition',
      'Planning',
      'Tender',
      'Works',
      'Completion',
    ]);
    await expect(matrix.getByRole('row')).toHaveCount(16);
    const employers = matrix.getByRole('row').filter({
      has: page.getByRole('rowheader', { name: 'Employers liability', exact: true }),
    });
    await expect(employers.locator('[data-tag]')).toHaveText(['Contractor']);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'insurance-guide-desktop');
  });

  test('at phone width the matrix scrolls inside its region', async ({ hub: page }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/demo/insurance-guide');
    const region = page.getByRole('region', { name: 'Insurances by development stage' });
    await expect(region).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'insurance-guide-phone');
  });
});
