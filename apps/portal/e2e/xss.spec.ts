import { execFile } from 'node:child_process';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import type { BrowserContext, Page } from '@playwright/test';

import { dataDir, expect, loginOpen, test } from './fixtures';
import { buildXssContent, NAUGHTY_STRINGS, type XssContent } from './xss-fixtures/build-content';
import { PAYLOADS } from './xss-fixtures/payloads';

const run = promisify(execFile);
const here = path.dirname(fileURLToPath(import.meta.url));
const ADMIN = path.resolve(here, '../../api/dist/admin.js');

/** A client of our own (never the shared fixtures' demo/northbank), unique per run. */
const PREFIX = `xss-${Date.now().toString(36)}`;
let content: XssContent;

/** The staff CLI, against the e2e server's data directory: the real import path, sanitiser included. */
async function admin(...args: string[]) {
  return run(process.execPath, [ADMIN, ...args], {
    env: { ...process.env, DATA_DIR: dataDir(), LOG_LEVEL: 'silent' },
  });
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  content = await buildXssContent(PREFIX);
  await admin(
    'client',
    'add',
    '--prefix',
    PREFIX,
    '--name',
    `XSS Lab <img src=x onerror="__xss('client-name')">`,
    '--login',
    'open',
  );
  // execFile rejects on a non-zero exit: an import the CLI refuses fails the run here.
  await admin('content', 'import', '--client', PREFIX, content.folder);
});

test.afterAll(async () => {
  if (content) await rm(content.folder, { recursive: true, force: true });
});

interface Trap {
  calls: string[];
  dialogs: string[];
  violations: string[];
}

/** Counts every way a payload could show it ran: the `__xss` binding (all frames), dialogs, CSP reports. */
async function trap(context: BrowserContext, page: Page): Promise<Trap> {
  const found: Trap = { calls: [], dialogs: [], violations: [] };
  await context.exposeBinding('__xss', (_source, id: unknown) => {
    found.calls.push(String(id));
  });
  await context.exposeBinding('__xssViolation', (_source, text: unknown) => {
    found.violations.push(String(text));
  });
  await context.addInitScript(() => {
    const w = window as unknown as Record<string, unknown> & { __xss: (id: string) => void };
    for (const name of ['alert', 'confirm', 'prompt', 'print']) {
      const original = w[name] as (...args: unknown[]) => unknown;
      w[name] = (...args: unknown[]) => {
        w.__xss(`${name}(${String(args[0])})`);
        return original.apply(window, args);
      };
    }
    document.addEventListener('securitypolicyviolation', (event) => {
      (window as unknown as { __xssViolation: (t: string) => void }).__xssViolation(
        `${event.violatedDirective} ${event.blockedURI} ${event.sample}`,
      );
    });
  });
  page.on('dialog', (dialog) => {
    found.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return found;
}

/** Markup that must never reach the DOM, whatever the browser then does with it. */
async function dangerousMarkup(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const urlAttributes = [
      'href',
      'src',
      'action',
      'formaction',
      'xlink:href',
      'data',
      'poster',
      'background',
      'to',
      'from',
      'values',
      'cite',
    ];
    for (const element of document.querySelectorAll('*')) {
      for (const attribute of element.attributes) {
        const name = attribute.name.toLowerCase();
        // eslint-disable-next-line no-control-regex
        const value = attribute.value.replace(/[\u0000-\u0020]/g, '').toLowerCase();
        if (name.startsWith('on')) problems.push(`<${element.localName} ${name}>`);
        if (name === 'srcdoc') problems.push(`<${element.localName} srcdoc>`);
        if (urlAttributes.includes(name)) {
          // Raster images, and the empty `data:,` (the page's own "no icon" declaration), cannot run anything.
          const imageData =
            value === 'data:,' ||
            (element.localName === 'img' && /^data:image\/(png|gif|jpe?g|webp)[;,]/.test(value));
          if (
            /^(javascript|vbscript|livescript):/.test(value) ||
            (value.startsWith('data:') && !imageData)
          ) {
            problems.push(`<${element.localName} ${name}="${attribute.value.slice(0, 60)}">`);
          }
        }
      }
    }
    const forbidden =
      'script, iframe, frame, frameset, object, embed, base, meta, link, style, template, math';
    for (const element of document.querySelectorAll(
      `main :is(${forbidden}), body > :not(#root) :is(script, iframe, object, embed)`,
    )) {
      problems.push(`<${element.localName}> in the page body`);
    }
    if (document.querySelectorAll('base').length > 0) problems.push('<base>');
    return problems;
  });
}

/** Gives late events (image errors, animations, autofocus) time to fire, then checks the DOM. */
async function settle(page: Page, where: string) {
  await page.waitForLoadState('load');
  await page.waitForTimeout(150);
  expect(await dangerousMarkup(page), `dangerous markup on ${where}`).toEqual([]);
}

test('the payload set covers every class and the naughty strings are loaded', () => {
  const kinds = new Set(PAYLOADS.map((p) => p.kind));
  for (const kind of [
    'script',
    'event-handler',
    'url',
    'svg',
    'mathml',
    'srcdoc',
    'mutation',
    'broken-nesting',
  ]) {
    expect(kinds, kind).toContain(kind);
  }
  expect(NAUGHTY_STRINGS.length).toBeGreaterThan(400);
});

test('no payload runs on any page, even with the CSP switched off (the sanitiser and React alone)', async ({
  browser,
}) => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const found = await trap(context, page);
  await loginOpen(page, PREFIX);

  // Control: the trap sees a handler that does run (so a silent run below means nothing ran).
  await page.evaluate(() => {
    const probe = document.createElement('div');
    probe.id = 'xss-control';
    probe.innerHTML = `<img src="x" onerror="__xss('control')">`;
    document.body.append(probe);
  });
  await expect.poll(() => found.calls).toContain('control');
  await page.evaluate(() => document.getElementById('xss-control')?.remove());
  found.calls.length = 0;

  // Dashboard: the video, the case study and insight cards.
  await expect(page.getByRole('heading', { level: 2, name: 'Case Studies' })).toBeVisible();
  await page.mouse.move(200, 300);
  await settle(page, 'dashboard');

  // Information hub: open every topic (description and pro tip).
  await page.goto(`/${PREFIX}/info`);
  const triggers = page.getByRole('main').getByRole('heading', { level: 2 }).getByRole('button');
  await expect(triggers).toHaveCount(content.topics);
  for (let index = 0; index < content.topics; index += 1) {
    await triggers.nth(index).click();
    await expect(triggers.nth(index)).toHaveAttribute('aria-expanded', 'true');
    await settle(page, `topic ${index + 1}`);
  }

  // Every article page, with its related items.
  for (const article of content.articles) {
    await page.goto(`/${PREFIX}/article?id=${article.slug}&type=${article.type}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(article.slug);
    await page.keyboard.press('Tab');
    await settle(page, `article ${article.slug}`);
  }

  // Search: payloads as the query, through the header box and in the address.
  const box = page.getByRole('searchbox', { name: 'Search the hub' });
  await box.fill(`<img src=x onerror="__xss('search-box')">`);
  await box.press('Enter');
  await expect(page).toHaveURL(/search-results/);
  await settle(page, 'search from the box');
  for (const query of [
    '<svg onload=__xss("search-url")>',
    'Payloads',
    '"><script>__xss(1)</script>',
  ]) {
    await page.goto(`/${PREFIX}/search-results?search=${encodeURIComponent(query)}`);
    await expect(page.getByRole('main')).toBeVisible();
    await settle(page, `search ${query}`);
  }

  expect(found.calls, 'payloads that ran').toEqual([]);
  expect(found.dialogs, 'dialogs opened').toEqual([]);
  // Nor did any content make the browser call the API as the viewer (`<img src="/api/…/logout">`).
  const me = await page.request.get(`/api/${PREFIX}`);
  expect(((await me.json()) as { logged_in: boolean }).logged_in, 'still logged in').toBe(true);
  await context.close();
});

test('every page answer carries the CSP, and nothing runs or is even blocked by it', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page);
  const documents: { url: string; csp: string | undefined }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document') {
      documents.push({ url: response.url(), csp: response.headers()['content-security-policy'] });
    }
  });
  await loginOpen(page, PREFIX);
  await settle(page, 'dashboard');
  const [first] = content.articles;
  for (const url of [
    `/${PREFIX}/info`,
    `/${PREFIX}/article?id=${first?.slug}&type=${first?.type}`,
    `/${PREFIX}/search-results?search=${encodeURIComponent('<script>__xss(2)</script>')}`,
    `/${PREFIX}/no-such-page`,
  ]) {
    await page.goto(url);
    await settle(page, url);
  }
  expect(documents.length).toBeGreaterThanOrEqual(5);
  for (const { url, csp } of documents) {
    expect(csp, url).toMatch(/script-src 'self'(;|$)/);
    expect(csp, url).toContain("object-src 'none'");
    expect(csp, url).toContain("base-uri 'none'");
  }
  expect(found.calls).toEqual([]);
  expect(found.dialogs).toEqual([]);
  // A violation would mean markup got past the sanitiser and only the CSP stopped it.
  expect(found.violations).toEqual([]);

  // An imported SVG opened on its own (it has a script): the media CSP sandboxes it, nothing runs.
  const listing = await page.request.get(`/api/${PREFIX}/content`);
  const items = ((await listing.json()) as { case_studies: { image_url: string | null }[] })
    .case_studies;
  const image = items.find((item) => item.image_url?.endsWith('.svg'))?.image_url;
  if (!image) throw new Error('the imported SVG image is missing');
  const svg = await page.goto(image);
  expect(svg?.headers()['content-security-policy']).toContain('sandbox');
  await page.waitForTimeout(250);
  expect(found.calls).toEqual([]);
  await context.close();
});
