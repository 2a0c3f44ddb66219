import type { Page } from '@playwright/test';

import { expect, expectNoAxeViolations, saveScreenshot, test, VIEWPORTS } from './fixtures';

function table(page: Page) {
  return page.getByRole('table', { name: 'Insurances for your project' });
}

/** A body row of the table by its insurance. */
function row(page: Page, insurance: string) {
  return table(page)
    .getByRole('row')
    .filter({
      has: page.getByRole('rowheader', { name: insurance, exact: true }),
    });
}

function limit(page: Page, term: string) {
  return page
    .getByRole('region', { name: 'Recommended limits' })
    .getByText(term, { exact: true })
    .locator('xpath=following-sibling::dd');
}

test.describe('Insurance Framework', () => {
  test('the default project: at least £5m PI, £2m PL, £10m EL and 15 rows', async ({
    hub: page,
  }) => {
    await page.goto('/demo/insurance-framework');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Insurance Framework' }),
    ).toBeVisible();

    await expect(limit(page, 'Professional indemnity (PI)')).toHaveText('at least £5,000,000');
    await expect(limit(page, 'Public liability (PL)')).toHaveText('£2,000,000');
    await expect(limit(page, 'Employers liability (EL)')).toHaveText('£10,000,000');
    await expect(table(page).getByRole('columnheader')).toHaveText([
      'Insurance',
      'Required',
      'Value',
      'Buyer',
      'Notes',
    ]);
    await expect(table(page).getByRole('row')).toHaveCount(16);
    await expect(row(page, 'Employers liability').getByRole('cell')).toHaveText([
      'Required',
      '£10,000,000',
      'Contractor',
      /.+/,
    ]);
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'insurance-framework-desktop');
  });

  test('a £30m BTR conversion in the city centre, with a basement and the developer as contractor', async ({
    hub: page,
  }) => {
    await page.goto('/demo/insurance-framework');
    await page.getByLabel('Property type').selectOption('Commercial- BTR');
    await page.getByRole('textbox', { name: /^Contract value.*exact amount/ }).fill('£30m');
    await page.getByRole('textbox', { name: /^Contract value.*exact amount/ }).press('Enter');
    await page.getByLabel('Development type').selectOption('Conversion');
    await page.getByLabel('Contractor').selectOption('Developer as contractor');
    await page.getByLabel('Scheme location').selectOption('City Centre');
    await page
      .getByRole('textbox', { name: /^Reinstatement value.*exact amount/ })
      .fill('4,000,000');
    await page.getByRole('textbox', { name: /^Reinstatement value.*exact amount/ }).press('Enter');
    await page.getByRole('switch', { name: 'The scheme has a basement' }).click();

    await expect(limit(page, 'Professional indemnity (PI)')).toHaveText('£15,000,000');
    await expect(limit(page, 'Public liability (PL)')).toHaveText('£10,000,000');
    const cells = (insurance: string) => row(page, insurance).getByRole('cell');
    await expect(cells('Contractors all risks (contract works)')).toHaveText([
      'Required',
      '£30,000,000',
      'Property Developer',
      /.+/,
    ]);
    await expect(cells('Existing structures (JCT option C)')).toHaveText([
      'Required',
      '£4,000,000',
      'Property Developer',
      /.+/,
    ]);
    await expect(cells('Non-negligent liability (JCT 6.5.1)').first()).toHaveText('Required');
    await expect(cells('Delay in start-up / loss of rent').first()).toHaveText('Required');
    await expect(cells('Terrorism').first()).toHaveText('Recommended');
    await expect(cells('Performance bond')).toHaveText([
      'Recommended',
      '£3,000,000',
      'Not required',
      /.+/,
    ]);
  });

  test('long notes are clamped to two lines and expand and collapse with Show more / Show less', async ({
    hub: page,
  }) => {
    await page.goto('/demo/insurance-framework');
    const notesCell = row(page, 'Professional indemnity').getByRole('cell').last();
    const button = notesCell.getByRole('button', { name: 'Show more' });
    await expect(button).toHaveAttribute('aria-expanded', 'false');
    const notes = notesCell.locator('p');
    const lineHeight = await notes.evaluate((p) => parseFloat(getComputedStyle(p).lineHeight));
    const clamped = await notes.evaluate((p) => p.getBoundingClientRect().height);
    expect(clamped).toBeLessThanOrEqual(lineHeight * 2 + 1);

    await button.click();
    const less = notesCell.getByRole('button', { name: 'Show less' });
    await expect(less).toHaveAttribute('aria-expanded', 'true');
    expect(await notes.evaluate((p) => p.getBoundingClientRect().height)).toBeGreaterThan(clamped);

    await less.click();
    await expect(notesCell.getByRole('button', { name: 'Show more' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
  });

  test('on a phone the table scrolls sideways inside its labelled region, not the page', async ({
    hub: page,
  }) => {
    await page.setViewportSize(VIEWPORTS.phone);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.goto('/demo/insurance-framework');
    const region = page.getByRole('region', { name: 'Insurances for your project' });
    await expect(region).toBeVisible();
    expect(await region.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      VIEWPORTS.phone.width,
    );
    await expectNoAxeViolations(page);
    await saveScreenshot(page, 'insurance-framework-phone');

    // Found by the twenty-fifth session's portal probe: a Show more reached by Tab, with the region scrolled to the
    // end of the notes, came into view under the insurance column, which stays in view as the region scrolls.
    await page.setViewportSize({ width: 320, height: 700 });
    const showMore = region.getByRole('button', { name: 'Show more' }).first();
    await region.evaluate((element) => (element.scrollLeft = element.scrollWidth));
    await region.focus();
    await page.keyboard.press('Tab');
    await expect(showMore).toBeFocused();
    const button = (await showMore.boundingBox())!;
    const column = (await region.locator('tbody th').first().boundingBox())!;
    expect(button.x).toBeGreaterThanOrEqual(column.x + column.width);
  });

  // A known fault: at a 640 px wide window (1280 px at 200 %), a Show more reached by Tab
  // stayed cut by 24 px at the region's right edge. Chromium leaves a control that is at least 32 px in view where it
  // is when focus moves; the region now scrolls a control focused from the keyboard wholly into view itself.
  for (const width of [640, 320]) {
    test(`at ${width} px every Show more reached by Tab is wholly in the region and clear of the insurance column`, async ({
      hub: page,
    }) => {
      await page.setViewportSize({ width, height: 800 });
      await page.emulateMedia({ reducedMotion: 'reduce' });
      await page.goto('/demo/insurance-framework');
      const region = page.getByRole('region', { name: 'Insurances for your project' });
      const buttons = region.getByRole('button', { name: 'Show more' });
      await expect(buttons).toHaveCount(15);
      expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(
        true,
      );

      /** The region's visible box (inside its border, without a scrollbar) and the sticky column's right edge. */
      const expectInView = async (index: number) => {
        const button = buttons.nth(index);
        await expect(button).toBeFocused();
        const box = (await button.boundingBox())!;
        const view = await region.evaluate((element) => {
          const rect = element.getBoundingClientRect();
          const left = rect.left + element.clientLeft;
          return { left, right: left + element.clientWidth };
        });
        const column = (await button.locator('xpath=ancestor::tr[1]/th[1]').boundingBox())!;
        const where = `Show more ${index + 1} at ${width} px`;
        expect(box.x, where).toBeGreaterThanOrEqual(view.left);
        expect(box.x + box.width, where).toBeLessThanOrEqual(view.right);
        expect(box.x, where).toBeGreaterThanOrEqual(column.x + column.width);
      };

      await region.focus();
      for (let index = 0; index < 15; index += 1) {
        await page.keyboard.press('Tab');
        await expectInView(index);
      }
      // And back again with Shift+Tab, from the region scrolled to its far end.
      await region.evaluate((element) => (element.scrollLeft = element.scrollWidth));
      for (let index = 13; index >= 0; index -= 1) {
        await page.keyboard.press('Shift+Tab');
        await expectInView(index);
      }
    });
  }
});

/** The colours of the pixels at `points` of a PNG screenshot (decoded in a blank page), as `r,g,b`. */
async function pixels(page: Page, png: Buffer, points: [number, number][]): Promise<string[]> {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async ({ data, at }) => {
        const image = new Image();
        image.src = `data:image/png;base64,${data}`;
        await image.decode();
        const canvas = document.createElement('canvas');
        canvas.width = image.width;
        canvas.height = image.height;
        const context = canvas.getContext('2d')!;
        context.drawImage(image, 0, 0);
        return at.map(([x, y]) => {
          const [r, g, b] = context.getImageData(Math.round(x), Math.round(y), 1, 1).data;
          return `${r},${g},${b}`;
        });
      },
      { data: png.toString('base64'), at: points },
    );
  } finally {
    await blank.close();
  }
}

// Found by the fifteenth session's accessibility probe: under forced colours (Windows High Contrast) every
// background becomes Canvas, so a switch on and a switch off were the same empty oval (the thumb itself drawn in
// Canvas), and a slider's track (a gradient) vanished, leaving the thumb's ring alone. Both are drawn in system
// colours there now.
test('under forced colours a switch shows whether it is on, and a slider shows its track', async ({
  hub: page,
}) => {
  await page.emulateMedia({ forcedColors: 'active' });
  await page.goto('/demo/insurance-framework');
  const on = page.getByRole('switch', { name: 'The scheme has a flat roof' });
  const off = page.getByRole('switch', { name: 'The scheme has a basement' });
  await on.click();
  await expect(on).toHaveAttribute('aria-checked', 'true');
  await expect(off).toHaveAttribute('aria-checked', 'false');
  await page.waitForTimeout(400); // the thumb's transition
  // In a track (44 × 24 px, 2 px border), the thumb (16 px) sits at x 4–20 when off and 24–40 when on.
  const [offThumb, offEmpty] = await pixels(page, await off.locator('span').first().screenshot(), [
    [12, 12],
    [32, 12],
  ]);
  const [onEmpty, onThumb] = await pixels(page, await on.locator('span').first().screenshot(), [
    [12, 12],
    [32, 12],
  ]);
  expect(offThumb).not.toBe(offEmpty); // the thumb shows against its track
  expect(onThumb).not.toBe(onEmpty);
  expect(onEmpty).not.toBe(offEmpty); // a track on is filled, one off is not

  // A slider at its highest: filled all along its track, which shows against the space above it.
  const slider = page.getByRole('slider').first();
  await slider.focus();
  await page.keyboard.press('End');
  const box = (await slider.boundingBox())!;
  const [track, above] = await pixels(page, await slider.screenshot(), [
    [box.width * 0.3, box.height / 2],
    [box.width * 0.3, 4],
  ]);
  expect(track).not.toBe(above);
});
