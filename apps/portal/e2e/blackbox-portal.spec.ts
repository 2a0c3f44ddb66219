import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { Page } from '@playwright/test';

import { expect, expectNoAxeViolations, loginOpen, test } from './fixtures';
import { admin, pageProblems, settled, trap, type Trap } from './hostile-fixtures/browser';

/**
 * A black-box run of the portal with content staff could import (or paste from another page): what the API's
 * sanitiser lets through is safe, but must also leave every page usable with a screen reader and a keyboard.
 */
const PREFIX = `bb-${Date.now().toString(36)}`;

/** Markup that survives sanitising and, shown as it is, fails WCAG (axe's rule in brackets). */
const MARKUP: Record<string, string> = {
  // The sanitiser refuses these addresses and leaves a bare `<img>`: broken and nameless (image-alt).
  images: [
    `<p>Before <img src=x onerror="__xss('img-onerror')"> after.</p>`,
    `![Site plan](https://tracker.example/plan.png)`,
    `<p><img src="media/pic.svg"> An image with no alt text.</p>`,
  ].join('\n\n'),
  // Focus order, roles and relations to the portal's own elements (tabindex, aria-hidden-focus,
  // aria-dialog-name, landmark-no-duplicate-main).
  focus: [
    `<p><a href="/${PREFIX}/info" tabindex="1">Jumps the queue</a> <span tabindex="0">A stop with no role</span></p>`,
    `<p aria-hidden="true"><a href="/${PREFIX}/info">Hidden but focusable</a></p>`,
    `<div role="dialog" aria-modal="true">Not a dialog</div>`,
    `<main><p>A second main landmark</p></main>`,
    `<p><label for="search">Relabels the search box</label></p>`,
    // Found by the twenty-ninth session's portal probe: visible, but out of reach of the keyboard, the mouse and
    // screen readers.
    `<p inert>An inert paragraph with <a href="/${PREFIX}/info">an inert link</a></p>`,
  ].join('\n\n'),
  // Motion, colour, language (marquee, blink, color-contrast, valid-lang).
  presentation: [
    `<marquee>Scrolling</marquee> <blink>Blinking</blink>`,
    `<p><font color="#ffffff">White on white</font></p>`,
    `<table bgcolor="#000000"><tr><td><font color="#000001">Black on black</font></td></tr></table>`,
    `<p lang="xx-not-a-language">An unknown language</p>`,
    // Found by the twenty-ninth session's portal probe: a line that never wraps made the page 4,130 px wide.
    `<p><nobr>${'Unbroken '.repeat(300)}</nobr></p>`,
  ].join('\n\n'),
  // Nothing to announce, and broken structure (link-name, empty-heading, empty-table-header, summary-name,
  // area-alt, list, definition-list, td-headers-attr, heading-order).
  structure: [
    `<p><a href="/${PREFIX}/info"></a> <a href="/${PREFIX}/info"><img src="media/pic.svg"></a></p>`,
    `<h3></h3><details><summary></summary>An empty summary</details>`,
    `<table><tr><th></th><th>Cover</th></tr><tr><td headers="elsewhere">x</td><td>y</td></tr></table>`,
    `<map name="m"><area href="/${PREFIX}/info" shape="rect" coords="0,0,10,10"></map>`,
    `<ul><li>An item</li><p>Not an item</p></ul><dl><p>Not a term</p></dl>`,
    `<h2>Section</h2><h6>Five levels down</h6>`,
  ].join('\n\n'),
  // Found by the twenty-ninth session's portal probe: landmarks of the page's own, or named alike
  // (landmark-unique), and controls inside a summary, itself one (nested-interactive).
  regions: [
    `<nav><a href="/${PREFIX}/info">One list of links</a></nav>`,
    `<nav><a href="/${PREFIX}/dashboard">Another list of links</a></nav>`,
    `<search>Not the page's search</search>`,
    `<aside title="Note">A note</aside><aside title="Note">Another note</aside>`,
    `<details><summary>See <a href="/${PREFIX}/info">the terms</a></summary>The terms.</details>`,
    `<details><summary>Outer <details><summary>Inner</summary>Inner text.</details></summary>Outer text.</details>`,
  ].join('\n\n'),
};

const SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><title>Picture</title><rect width="40" height="40" fill="#369"/></svg>\n`;
const yaml = (value: string) => JSON.stringify(value);

let folder: string | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'firm-blackbox-content-'));
  for (const sub of ['case-studies', 'topics', 'media']) {
    await mkdir(path.join(folder, sub), { recursive: true });
  }
  await writeFile(path.join(folder, 'media', 'pic.svg'), SVG);
  await writeFile(
    path.join(folder, 'client.yml'),
    `prefix: ${PREFIX}\nname: Black Box\nlogin: open\nbranding:\n  primary: '#0B4F6C'\n  accent: '#E8A33D'\n`,
  );
  for (const [slug, body] of Object.entries(MARKUP)) {
    await writeFile(
      path.join(folder, 'case-studies', `${slug}.md`),
      `---\ntitle: ${yaml(`Markup: ${slug}`)}\nsummary: ${yaml(`Hostile ${slug} markup.`)}\nimage: media/pic.svg\n---\n\n${body}\n`,
    );
  }
  await writeFile(
    path.join(folder, 'topics', 'hostile.md'),
    `---\ntitle: Hostile topic\norder: 1\npro_tip: ${yaml(`Tip <img src=x onerror="__xss('tip')"> <a href="/${PREFIX}/info" tabindex="1">jump</a>`)}\n---\n\n` +
      `${MARKUP.images}\n\n${MARKUP.focus}\n\n${MARKUP.presentation}\n\n${MARKUP.structure}\n`,
  );
  await admin('client', 'add', '--prefix', PREFIX, '--name', 'Black Box', '--login', 'open');
  await admin('content', 'import', '--client', PREFIX, folder);
});

test.afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Nothing ran, nothing was blocked, nothing unexpected was asked for. */
function expectQuiet(found: Trap) {
  expect(found.calls, 'script ran').toEqual([]);
  expect(found.dialogs, 'dialogs').toEqual([]);
  expect(found.violations, 'CSP violations').toEqual([]);
  expect(found.requests, 'requests the portal does not make').toEqual([]);
  expect(found.errors, 'page errors').toEqual([]);
}

/** Waits until the accordion has opened: axe measures colours mid-transition otherwise. */
async function animationsDone(page: Page) {
  await page.waitForFunction(() =>
    document.getAnimations().every((animation) => animation.playState !== 'running'),
  );
}

/** The focus stops the page's content adds, in Tab order: each must be visible and have a name. */
async function contentFocusStops(page: Page) {
  return page.evaluate(() => {
    const main = document.querySelector('main');
    const stops: string[] = [];
    for (const element of main?.querySelectorAll('[tabindex]') ?? []) {
      if (Number(element.getAttribute('tabindex')) > 0) {
        stops.push(`tabindex=${element.getAttribute('tabindex')}`);
      }
    }
    for (const link of main?.querySelectorAll('a[href]') ?? []) {
      const box = link.getBoundingClientRect();
      const name = (link.textContent ?? '').trim() || link.querySelector('img')?.alt?.trim();
      if (!name) stops.push(`a link with no name: ${link.outerHTML.slice(0, 80)}`);
      else if (box.width === 0 || box.height === 0) stops.push(`an invisible link: ${name}`);
    }
    return stops;
  });
}

test('content markup the sanitiser lets through leaves every page accessible (axe) and runs nothing', async ({
  context,
  page,
  baseURL,
}) => {
  const found = await trap(context, page, new URL(baseURL ?? '').origin);
  await loginOpen(page, PREFIX);

  for (const slug of Object.keys(MARKUP)) {
    await page.goto(`/${PREFIX}/article?id=${slug}&type=case_study`);
    await expect(page.getByRole('heading', { level: 1, name: `Markup: ${slug}` })).toBeVisible();
    await expectNoAxeViolations(page);
    expect(await contentFocusStops(page), slug).toEqual([]);
    expect(
      (await pageProblems(page)).filter((problem) => problem.includes('wider')),
      slug,
    ).toEqual([]);
  }

  await page.goto(`/${PREFIX}/info`);
  await page.getByRole('main').getByRole('button', { name: 'Hostile topic' }).click();
  await expect(page.getByText('Not a dialog')).toBeVisible();
  await animationsDone(page);
  await expectNoAxeViolations(page);
  expect(await contentFocusStops(page), 'information hub').toEqual([]);

  await page.goto(`/${PREFIX}/search-results?search=${encodeURIComponent('Not an item')}`);
  await page.getByRole('main').getByRole('button', { name: 'Hostile topic' }).click();
  await expect(page.getByText('Not a dialog')).toBeVisible();
  await animationsDone(page);
  await expectNoAxeViolations(page);

  await page.goto(`/${PREFIX}/dashboard`);
  await expect(page.getByRole('link', { name: /Markup: images/ })).toBeVisible();
  await expectNoAxeViolations(page);
  expectQuiet(found);
});

test('content cannot put itself ahead of the skip link, pose as a dialog or lose its words', async ({
  page,
}) => {
  await loginOpen(page, PREFIX);
  await page.goto(`/${PREFIX}/article?id=focus&type=case_study`);
  await expect(page.getByText('Jumps the queue')).toBeVisible();
  // The first Tab reaches the portal's skip link, not a content link with tabindex="1".
  await page.keyboard.press('Tab');
  await expect(page.locator(':focus')).toHaveText('Skip to main content');
  // The link inside aria-hidden is announced like any other; the fake dialog is plain text.
  await expect(page.getByRole('link', { name: 'Hidden but focusable' })).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Content's words stay, its label points at nothing of the portal's.
  await expect(page.getByText('Relabels the search box')).toBeVisible();
  await expect(page.locator('main label')).toHaveCount(0);
  // An inert paragraph's link is reached like any other.
  const inertLink = page.getByRole('main').locator('a', { hasText: 'an inert link' });
  await inertLink.focus();
  await expect(inertLink).toBeFocused();

  await page.goto(`/${PREFIX}/article?id=images&type=case_study`);
  // An image whose address was refused leaves its alt text, not a broken image.
  await expect(page.getByRole('main').getByText('Site plan')).toBeVisible();
  await expect(page.locator('main img:not([src])')).toHaveCount(0);
});

test('an address with broken percent-encoding in its path shows the portal’s page, not raw JSON', async ({
  page,
}) => {
  // The API's router refuses these before any route (apps/api/src/app.ts, frameworkErrors); a browser's navigation
  // gets the portal's page with a 404 (it showed `{"error":"Bad request: the address is not well formed."}`).
  await loginOpen(page, PREFIX);
  for (const address of [`/${PREFIX}/%E0%A4%A`, `/${PREFIX}/article%ZZ`, '/%ZZ/login']) {
    const response = await page.goto(address);
    expect(response?.status(), address).toBeGreaterThanOrEqual(400);
    expect(response?.headers()['content-security-policy'], address).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1 }), address).toBeVisible();
    expect(await settled(page), address).toEqual([]);
  }
});
