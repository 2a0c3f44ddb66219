import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { expect, loginOpen, newUser, test } from './fixtures';
import { admin } from './hostile-fixtures/browser';

/**
 * A client's logo of an extreme shape, as the staff tool imports it from client.yml: 5,000 by 10. Found by the
 * twenty-ninth session's portal probe: drawn 3rem high at its own proportions, it was 24,000 px wide on the login
 * page, with the form far beyond the window, and in the hub's header it squeezed the welcome to a letter a line.
 */
const PREFIX = `hostile-l-${Date.now().toString(36)}`;
const WIDE_LOGO = `<svg xmlns="http://www.w3.org/2000/svg" width="5000" height="10" viewBox="0 0 5000 10"><rect width="5000" height="10" fill="#0B4F6C"/></svg>\n`;
let folder: string | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'firm-hostile-logo-'));
  await mkdir(path.join(folder, 'case-studies'), { recursive: true });
  await mkdir(path.join(folder, 'media'), { recursive: true });
  await writeFile(path.join(folder, 'media', 'logo.svg'), WIDE_LOGO);
  await writeFile(
    path.join(folder, 'client.yml'),
    `prefix: ${PREFIX}\nname: Wide Logo\nlogin: open\nbranding:\n  logo: media/logo.svg\n`,
  );
  await writeFile(
    path.join(folder, 'case-studies', 'one.md'),
    '---\ntitle: One\nsummary: One case study.\n---\n\nBody.\n',
  );
  await admin('client', 'add', '--prefix', PREFIX, '--name', 'Wide Logo', '--login', 'open');
  await admin('content', 'import', '--client', PREFIX, folder);
});

test.afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** How far the page is wider than the window, in pixels. */
const overflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

/** Whether the whole of the element is within the window's width. */
async function withinWidth(page: Page, selector: ReturnType<Page['locator']>) {
  const box = await selector.boundingBox();
  const width = page.viewportSize()?.width ?? 0;
  return box !== null && box.x >= 0 && box.x + box.width <= width;
}

for (const width of [320, 1280]) {
  test(`${width} px: a logo 500 times wider than high keeps the login page and the header in the window`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await page.goto(`/${PREFIX}/login`);
    const logo = page.locator('main img');
    await expect(logo).toBeVisible();
    await expect.poll(() => logo.evaluate((image: HTMLImageElement) => image.complete)).toBe(true);
    expect(await overflow(page)).toBeLessThanOrEqual(1);
    expect(await withinWidth(page, logo)).toBe(true);
    expect(await withinWidth(page, page.getByRole('button', { name: 'Continue' }))).toBe(true);

    const user = await loginOpen(page, PREFIX, newUser('logo'));
    const headerLogo = page.locator('header img');
    await expect
      .poll(() => headerLogo.evaluate((image: HTMLImageElement) => image.complete))
      .toBe(true);
    expect(await overflow(page)).toBeLessThanOrEqual(1);
    expect(await withinWidth(page, headerLogo)).toBe(true);
    // The welcome keeps a line of its own, not a letter a line beside the logo.
    const welcome = page.getByText(`Welcome, ${user.first_name}`);
    expect((await welcome.boundingBox())?.height ?? Infinity).toBeLessThan(40);
    await context.close();
  });
}
