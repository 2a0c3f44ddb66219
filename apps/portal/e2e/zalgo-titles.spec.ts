import { rm } from 'node:fs/promises';

import type { Page } from '@playwright/test';

import { expect, expectNoAxeViolations, loginOpen, newUser, test } from './fixtures';
import { admin } from './hostile-fixtures/browser';
import { buildZalgoContent, PLAIN_TITLE, ZALGO_TITLE } from './hostile-fixtures/content';

/**
 * Titles of "Zalgo" text (a letter under a tower of combining marks) in every place content titles are shown: the
 * dashboard's video and cards, the information hub's accordion, an article's heading and its related list, the
 * search results. A fault carried from an earlier portal probe: the marks were drawn far outside the title, over
 * the header above it and the text below it. Each title now clips what is drawn more than half its font size
 * outside its box (`containMarksCss` in @firm/ui), and plain text, accents and descenders are drawn whole. Debian's
 * fonts stack the marks below a letter, not above it, so here they are seen over the text below; the check is the
 * same in both directions: nothing of a title is drawn outside it.
 */
const PREFIX = `zalgo-${Date.now().toString(36)}`;
let folder: string | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  folder = await buildZalgoContent(PREFIX);
  await admin('client', 'add', '--prefix', PREFIX, '--name', 'Zalgo', '--login', 'open');
  await admin('content', 'import', '--client', PREFIX, folder);
});

test.afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** The pages that show content titles, each once its titles are on screen. */
const PAGES: { name: string; open: (page: Page) => Promise<void> }[] = [
  {
    name: 'the dashboard',
    open: async (page) => {
      await page.goto(`/${PREFIX}/dashboard`);
      await expect(page.getByRole('heading', { name: 'Insights' })).toBeVisible();
    },
  },
  {
    name: 'the information hub',
    open: async (page) => {
      await page.goto(`/${PREFIX}/info`);
      await expect(page.getByRole('button', { name: PLAIN_TITLE })).toBeVisible();
    },
  },
  {
    name: 'an article and its related list',
    open: async (page) => {
      await page.goto(`/${PREFIX}/dashboard`);
      await page.getByRole('link', { name: ZALGO_TITLE }).first().click();
      await expect(page.getByRole('heading', { level: 1, name: ZALGO_TITLE })).toBeVisible();
      await expect(page.getByRole('heading', { name: 'You may also like…' })).toBeVisible();
    },
  },
  {
    name: 'the search results',
    open: async (page) => {
      await page.goto(`/${PREFIX}/search-results?search=Zalgo`);
      await expect(page.getByRole('heading', { name: 'Insights' })).toBeVisible();
    },
  },
];

/** The boxes of the text nodes holding `text`, in the page's coordinates, and the elements that hold them. */
async function marked(page: Page, text: string) {
  return page.evaluate((wanted) => {
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    const found: { x: number; y: number; width: number; height: number; fontSize: number }[] = [];
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      if (node.textContent !== wanted || node.parentElement === null) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      if (box.width === 0) continue;
      node.parentElement.dataset.marked = 'true';
      found.push({
        x: box.x + window.scrollX,
        y: box.y + window.scrollY,
        width: box.width,
        height: box.height,
        fontSize: parseFloat(getComputedStyle(node.parentElement).fontSize),
      });
    }
    return found;
  }, text);
}

/**
 * Waits for the page's images and fonts to be drawn and for its scrolling to end, so that the titles are measured
 * where the screenshots show them and two screenshots differ only by what the test changed. A new page scrolls
 * smoothly back to the top (useScrollToTop), and the article's related list is sticky: measured mid-scroll, its
 * title's box was 38 px below where it was drawn (the fresh-clone CI failure of session 33).
 */
async function settle(page: Page) {
  await page.evaluate(() =>
    Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))),
  );
  await page.evaluate(() => document.fonts.ready);
  await page.evaluate(async () => {
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    // Still for ten frames in a row: smooth scrolling moves the page every frame until it ends.
    for (let still = 0, last = scrollY; still < 10;) {
      await frame();
      still = scrollY === last ? still + 1 : 0;
      last = scrollY;
    }
  });
}

/**
 * A screenshot of the whole page once two in a row are the same (an image or a shadow may still be drawn). Videos
 * are masked (the comparisons leave their boxes out anyway): while one is still loading, on a busy machine, its
 * controls draw Chromium's loading dots, which `animations: 'disabled'` does not stop.
 */
async function stableScreenshot(page: Page): Promise<Buffer> {
  const shot = () =>
    page.screenshot({ fullPage: true, animations: 'disabled', mask: [page.locator('video')] });
  let last = await shot();
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const next = await shot();
    if (next.equals(last)) return next;
    last = next;
  }
  throw new Error('the page kept changing');
}

/**
 * The pixels that differ between two screenshots of the same size and lie outside every one of `allowed`: their
 * count and the box around them.
 */
async function differencesOutside(
  page: Page,
  before: Buffer,
  after: Buffer,
  allowed: { x: number; y: number; width: number; height: number }[],
) {
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate(
      async ({ first, second, boxes }) => {
        const read = async (data: string) => {
          const image = new Image();
          image.src = `data:image/png;base64,${data}`;
          await image.decode();
          const canvas = document.createElement('canvas');
          canvas.width = image.width;
          canvas.height = image.height;
          const context = canvas.getContext('2d')!;
          context.drawImage(image, 0, 0);
          return context.getImageData(0, 0, image.width, image.height);
        };
        const [a, b] = [await read(first), await read(second)];
        let count = 0;
        const seen = { top: Infinity, bottom: -Infinity, left: Infinity, right: -Infinity };
        for (let y = 0; y < a.height; y += 1) {
          for (let x = 0; x < a.width; x += 1) {
            const i = (y * a.width + x) * 4;
            if (
              a.data[i] === b.data[i] &&
              a.data[i + 1] === b.data[i + 1] &&
              a.data[i + 2] === b.data[i + 2]
            ) {
              continue;
            }
            const inside = boxes.some(
              (box) => x >= box.x && x < box.x + box.width && y >= box.y && y < box.y + box.height,
            );
            if (inside) continue;
            count += 1;
            seen.top = Math.min(seen.top, y);
            seen.bottom = Math.max(seen.bottom, y);
            seen.left = Math.min(seen.left, x);
            seen.right = Math.max(seen.right, x);
          }
        }
        return { count, ...(count > 0 ? seen : {}) };
      },
      { first: before.toString('base64'), second: after.toString('base64'), boxes: allowed },
    );
  } finally {
    await blank.close();
  }
}

for (const { name, open } of PAGES) {
  test(`a Zalgo title draws nothing outside its own box on ${name}`, async ({ page }) => {
    await loginOpen(page, PREFIX, newUser('zalgo'));
    await open(page);
    await settle(page);
    const titles = await marked(page, ZALGO_TITLE);
    expect(titles.length, 'Zalgo titles on the page').toBeGreaterThan(0);
    const shown = await stableScreenshot(page);
    await expectNoAxeViolations(page);
    await page.addStyleTag({ content: '[data-marked] { visibility: hidden !important; }' });
    const hidden = await stableScreenshot(page);
    // The text's box and one font size around it: twice what a title lets be drawn outside its box.
    const allowed = titles.map(({ x, y, width, height, fontSize }) => ({
      x: x - fontSize,
      y: y - fontSize,
      width: width + 2 * fontSize,
      height: height + 2 * fontSize,
    }));
    // The video's frame may be drawn anew between the two screenshots: it is left out.
    const videos = await page.locator('video').evaluateAll((elements) =>
      elements.map((element) => {
        const box = element.getBoundingClientRect();
        return { x: box.x + scrollX, y: box.y + scrollY, width: box.width, height: box.height };
      }),
    );
    expect(await differencesOutside(page, shown, hidden, [...allowed, ...videos])).toEqual({
      count: 0,
    });
  });
}

for (const { name, open } of PAGES.slice(0, 3)) {
  test(`a title of plain text is drawn whole, accents and descenders too, on ${name}`, async ({
    page,
  }) => {
    await loginOpen(page, PREFIX, newUser('plain'));
    await open(page);
    await settle(page);
    const titles = await marked(page, PLAIN_TITLE);
    expect(titles.length, 'plain titles on the page').toBeGreaterThan(0);
    const shots = async () =>
      Promise.all(
        titles.map(({ x, y, width, height, fontSize }) =>
          page.screenshot({
            fullPage: true,
            animations: 'disabled',
            clip: {
              x: x - fontSize,
              y: y - fontSize,
              width: width + 2 * fontSize,
              height: height + 2 * fontSize,
            },
          }),
        ),
      );
    const clipped = await shots();
    // Nothing clipped at all: each title and the elements around it draw everything.
    await page.addStyleTag({
      content:
        '[data-marked], [data-marked] *, :has(> [data-marked]), :has(> * > [data-marked]) { overflow: visible !important; }',
    });
    const whole = await shots();
    for (const [index, shot] of clipped.entries()) {
      expect(shot.equals(whole[index]!), `plain title ${index}`).toBe(true);
    }
    await expectNoAxeViolations(page);
  });
}

// The card title clips what is drawn around it, but its link still covers the whole card (the stretched link is
// placed against the card, outside the title's clip).
test('a card whose title clips its marks is still one click target, its image too', async ({
  page,
}) => {
  await loginOpen(page, PREFIX, newUser('card'));
  await page.goto(`/${PREFIX}/dashboard`);
  const card = page.locator('[data-ui="card"]').filter({ hasText: 'Zalgo' }).first();
  // On the image, near the card's corner: far from the title.
  await card.click({ position: { x: 20, y: 20 } });
  await expect(page.getByRole('heading', { level: 1, name: ZALGO_TITLE })).toBeVisible();
});
