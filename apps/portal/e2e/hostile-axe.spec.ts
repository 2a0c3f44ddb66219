import { rm } from 'node:fs/promises';

import { expect, expectNoAxeViolations, loginOpen, newUser, test } from './fixtures';
import { admin, pageProblems } from './hostile-fixtures/browser';
import { buildXssContent, type XssContent } from './xss-fixtures/build-content';

/**
 * Accessibility under hostile content: the XSS payload set (every body, title, summary, pro tip and the video's
 * description full of markup and naughty strings, with headings of its own) imported into a client of its own,
 * and every page that shows it checked by axe (every rule it runs by default) at 320, 640 and 1280 px, with the
 * information hub's topics open and the drawer open where there is one. The pages must also stay within the window.
 */
const PREFIX = `hostile-a-${Date.now().toString(36)}`;
let content: XssContent | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  content = await buildXssContent(PREFIX);
  await admin('client', 'add', '--prefix', PREFIX, '--name', 'Axe Lab', '--login', 'open');
  await admin('content', 'import', '--client', PREFIX, content.folder);
});

test.afterAll(async () => {
  if (content) await rm(content.folder, { recursive: true, force: true });
});

for (const width of [320, 640, 1280]) {
  test(`${width} px: the dashboard, hub, articles and search hold no axe violation and fit the window`, async ({
    browser,
  }) => {
    test.setTimeout(180_000);
    const context = await browser.newContext({ viewport: { width, height: 800 } });
    const page = await context.newPage();
    await loginOpen(page, PREFIX, newUser('axe'));
    const check = async (where: string) => {
      await page.waitForLoadState('load');
      expect(
        (await pageProblems(page)).filter((p) => p.includes('wider')),
        where,
      ).toEqual([]);
      await expectNoAxeViolations(page);
    };

    // The dashboard: the video's description (headings of its own under the page's h1), the cards.
    await expect(page.getByRole('heading', { level: 2, name: 'Case Studies' })).toBeVisible();
    await check('dashboard');

    const menu = page.getByRole('button', { name: 'Menu' });
    if (await menu.isVisible()) {
      await menu.click();
      await expect(page.getByRole('dialog')).toBeVisible();
      await check('drawer');
      await page.keyboard.press('Escape');
    }

    await page.goto(`/${PREFIX}/info`);
    const triggers = page.getByRole('main').getByRole('heading', { level: 2 }).getByRole('button');
    await expect(triggers).toHaveCount(content!.topics);
    for (let index = 0; index < content!.topics; index += 1) {
      await triggers.nth(index).click();
      await expect(triggers.nth(index)).toHaveAttribute('aria-expanded', 'true');
      await check(`topic ${index + 1}`);
    }

    for (const article of content!.articles) {
      await page.goto(`/${PREFIX}/article?id=${article.slug}&type=${article.type}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(article.slug);
      await check(`article ${article.slug}`);
    }

    await page.goto(`/${PREFIX}/search-results?search=Payloads`);
    await expect(page.getByRole('heading', { level: 2, name: 'Case Studies' })).toBeVisible();
    await check('search');
    await context.close();
  });
}
