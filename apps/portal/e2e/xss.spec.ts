import { rm } from 'node:fs/promises';

import type { BrowserContext, Page } from '@playwright/test';

import { expect, loginOpen, newUser, test, waitForLoginLink } from './fixtures';
import { admin, hookScript } from './hostile-fixtures/browser';
import {
  buildPatternContent,
  buildRefusedContent,
  buildXssContent,
  NAUGHTY_STRINGS,
  REPLACEMENT_PATTERNS,
  type XssContent,
} from './xss-fixtures/build-content';
import { HOSTILE_PAYLOADS } from './xss-fixtures/hostile-payloads';
import { PAYLOADS } from './xss-fixtures/payloads';

/** A client of our own (never the shared fixtures' demo/northbank), unique per run. */
const PREFIX = `xss-${Date.now().toString(36)}`;
/** A second one, whose name and article hold `$\``, `$'`, `$&` and `$$` (see REPLACEMENT_PATTERNS). */
const PATTERN_PREFIX = `${PREFIX}-p`;
/** The contact details staff may type: free text for the phone, anything shaped like an address for e-mail. */
const HOSTILE_PHONE = `javascript:__xss('phone') <img src=x onerror=__xss('phone-img')>`;
const HOSTILE_EMAIL = `javascript:__xss('email')//@evil.example`;
let content: XssContent;
let patternFolder: string | undefined;

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
    '--phone',
    HOSTILE_PHONE,
    '--email',
    HOSTILE_EMAIL,
  );
  // execFile rejects on a non-zero exit: an import the CLI refuses fails the run here.
  await admin('content', 'import', '--client', PREFIX, content.folder);

  patternFolder = await buildPatternContent(PATTERN_PREFIX);
  await admin(
    'client',
    'add',
    '--prefix',
    PATTERN_PREFIX,
    '--name',
    `Patterns ${REPLACEMENT_PATTERNS}`,
    '--login',
    'open',
    '--phone',
    REPLACEMENT_PATTERNS,
  );
  await admin('content', 'import', '--client', PATTERN_PREFIX, patternFolder);
});

test.afterAll(async () => {
  if (content) await rm(content.folder, { recursive: true, force: true });
  if (patternFolder) await rm(patternFolder, { recursive: true, force: true });
});

interface Trap {
  calls: string[];
  dialogs: string[];
  violations: string[];
  /** Requests the page made by itself that content could have caused: anything but the portal's own. */
  requests: string[];
  /** Uncaught errors in the page (a payload that breaks the app is a fault too). */
  errors: string[];
}

/**
 * Whether a request is one the portal itself makes: its documents, code and styles, its API calls (fetch), and
 * imported media (images, the video, its captions). Anything else (an image, a prefetch, a frame, a ping to the
 * API or to another site) was asked for by content.
 */
function portalRequest(url: URL, resourceType: string, origin: string): boolean {
  if (url.protocol === 'data:' || url.protocol === 'blob:') return true;
  if (url.origin !== origin) return false;
  if (['document', 'script', 'stylesheet', 'font', 'manifest'].includes(resourceType)) {
    return !url.pathname.startsWith('/api/') || resourceType === 'document';
  }
  if (resourceType === 'fetch' || resourceType === 'xhr') return url.pathname.startsWith('/api/');
  return /^\/media\/[a-z0-9-]+\/[a-f0-9]{20}\.[a-z0-9]+$/.test(url.pathname);
}

/** Counts every way a payload could show it ran: the `__xss` binding (all frames), dialogs, CSP reports. */
async function trap(context: BrowserContext, page: Page): Promise<Trap> {
  const found: Trap = { calls: [], dialogs: [], violations: [], requests: [], errors: [] };
  page.on('request', (request) => {
    const url = new URL(request.url());
    const origin = new URL(page.url() === 'about:blank' ? request.url() : page.url()).origin;
    if (!portalRequest(url, request.resourceType(), origin)) {
      found.requests.push(
        `${request.resourceType()} ${request.method()} ${request.url().slice(0, 120)}`,
      );
    }
  });
  page.on('pageerror', (error) => found.errors.push(error.message));
  await hookScript(context, page, found);
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
    // Content's links (found by the thirty-first session's XSS probe): none into the API (a click on
    // `/api/<client>/logout` logged the viewer out), none protocol-relative behind control characters the browser
    // drops, none to a fragment of the portal's own, and no file saved under a name of content's choosing.
    for (const link of document.querySelectorAll('main a[href]')) {
      const raw = link.getAttribute('href') ?? '';
      // eslint-disable-next-line no-control-regex
      if (/^[\u0000-\u0020]/.test(raw)) problems.push(`<a href="${raw.slice(0, 60)}"> (padded)`);
      const url = new URL(raw, document.baseURI);
      if (url.origin === window.location.origin && /^\/api(\/|$)/i.test(url.pathname)) {
        problems.push(`<a href="${raw.slice(0, 60)}"> (into the API)`);
      }
      if (link.hasAttribute('download'))
        problems.push(`<a download="${link.getAttribute('download')}">`);
    }
    // A window content opens keeps no handle on the portal (reverse tabnabbing): no `target` beside `noopener`.
    for (const link of document.querySelectorAll('main :is(a, area)[target]')) {
      if (!/\bnoopener\b/i.test(link.getAttribute('rel') ?? '')) {
        problems.push(`<${link.localName} target="${link.getAttribute('target')}">`);
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

/** Whether the app is still whole: one root, drawn, no error page or failure notice. */
async function brokenPage(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const roots = document.querySelectorAll('#root');
    if (roots.length !== 1) problems.push(`${roots.length} #root elements`);
    if (!document.querySelector('#root main, #root form')) problems.push('nothing drawn in #root');
    for (const heading of document.querySelectorAll('h1')) {
      if (heading.textContent?.trim() === 'Oops!') problems.push('the error page');
    }
    for (const alert of document.querySelectorAll('main [role="alert"]')) {
      problems.push(`alert: ${alert.textContent?.slice(0, 80)}`);
    }
    return problems;
  });
}

/**
 * Waits for the app to draw the page (a slower machine draws it well after `load`: the app starts once the
 * loading note is painted), gives late events (image errors, animations, autofocus) time to fire, then checks
 * the DOM. A page never drawn within the wait is reported by `brokenPage`.
 */
async function settle(page: Page, where: string) {
  await page.waitForLoadState('load');
  await page
    .locator('#root main, #root form')
    .first()
    .waitFor({ state: 'visible', timeout: 15_000 })
    .catch(() => undefined);
  await page.waitForTimeout(150);
  expect(await dangerousMarkup(page), `dangerous markup on ${where}`).toEqual([]);
  expect(await brokenPage(page), `page broken on ${where}`).toEqual([]);
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
  const hostileKinds = new Set(HOSTILE_PAYLOADS.map((p) => p.kind));
  for (const kind of [
    'mutation',
    'namespace',
    'document',
    'embedding',
    'url-obfuscation',
    'svg-animation',
    'css',
    'form',
    'event-handler',
    'loading-attribute',
    'legacy-element',
    'markdown',
    'clobbering',
    'unicode',
  ] as const) {
    expect(hostileKinds, kind).toContain(kind);
  }
  const ids = [...PAYLOADS, ...HOSTILE_PAYLOADS].map((p) => p.id);
  expect(new Set(HOSTILE_PAYLOADS.map((p) => p.id)).size).toBe(HOSTILE_PAYLOADS.length);
  expect(ids.length).toBeGreaterThan(150);
  expect(NAUGHTY_STRINGS.length).toBeGreaterThan(400);
});

test('no payload runs on any page, even with the CSP switched off (the sanitiser and React alone)', async ({
  browser,
}) => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const found = await trap(context, page);
  // The user's own details are shown back to them (header, welcome): payloads there too.
  await loginOpen(page, PREFIX, {
    ...newUser('xss'),
    first_name: `<img src=x onerror="__xss('first-name')">`,
    last_name: `"><svg onload=__xss('last-name')>`,
  });

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
  found.requests.length = 0;

  // Dashboard: the video (captions on), the case study and insight cards.
  await expect(page.getByRole('heading', { level: 2, name: 'Case Studies' })).toBeVisible();
  await page.mouse.move(200, 300);
  await page.evaluate(async () => {
    const video = document.querySelector('video');
    if (video) {
      video.muted = true;
      await video.play().catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      video.pause();
    }
  });
  await settle(page, 'dashboard');
  // The staff-typed phone and e-mail stay tel: and mailto: links, whatever they hold.
  const contact = page.getByRole('region', { name: 'Contact the team' }).getByRole('link');
  await expect(contact).toHaveCount(2);
  await expect(contact.nth(0)).toHaveAttribute('href', /^tel:\+?\d*$/);
  await expect(contact.nth(1)).toHaveAttribute('href', `mailto:${HOSTILE_EMAIL}`);

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

  // The article's address: payloads as its id and type (the page says "not found", and the server writes the
  // address's call into the page's first answers).
  for (const [id, type] of [
    [`<img src=x onerror=__xss('article-id')>`, 'case_study'],
    ['case-1', `"><svg onload=__xss('article-type')>`],
    [`</script><script>__xss('article-boot')</script><!--<script>`, 'insight'],
    ['javascript:__xss(1)', 'javascript:__xss(2)'],
  ]) {
    await page.goto(
      `/${PREFIX}/article?id=${encodeURIComponent(id ?? '')}&type=${encodeURIComponent(type ?? '')}`,
    );
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await settle(page, `article address ${id} ${type}`);
  }
  // The due-diligence page's `?success=` (only `1` says thank you) and other words there.
  for (const success of [`<img src=x onerror=__xss('success')>`, '1"><svg onload=__xss(3)>']) {
    await page.goto(`/${PREFIX}/due-diligence?success=${encodeURIComponent(success)}`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await settle(page, `due diligence ?success=${success}`);
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
  expect(found.errors, 'uncaught errors').toEqual([]);
  // Nor did any content make the browser ask for anything by itself: not the API as the viewer
  // (`<img src="/api/…/logout">`, `<table background>`), not another site.
  expect(found.requests, 'requests content made').toEqual([]);
  const me = await page.request.get(`/api/${PREFIX}`);
  expect(((await me.json()) as { logged_in: boolean }).logged_in, 'still logged in').toBe(true);
  await context.close();
});

/** The page's document answers from now on, each with its CSP header (grows as the page navigates). */
function documentsOf(page: Page): { url: string; csp: string | undefined }[] {
  const documents: { url: string; csp: string | undefined }[] = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document') {
      documents.push({ url: response.url(), csp: response.headers()['content-security-policy'] });
    }
  });
  return documents;
}

test('every page answer carries the CSP, and nothing runs or is even blocked by it', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page);
  const documents = documentsOf(page);
  await loginOpen(page, PREFIX);
  await settle(page, 'dashboard');
  const [first] = content.articles;
  for (const url of [
    `/${PREFIX}/info`,
    `/${PREFIX}/article?id=${first?.slug}&type=${first?.type}`,
    `/${PREFIX}/search-results?search=${encodeURIComponent('<script>__xss(2)</script>')}`,
    `/${PREFIX}/article?id=${encodeURIComponent(`</script><img src=x onerror=__xss('csp-id')>`)}&type=insight`,
    `/${PREFIX}/due-diligence?success=${encodeURIComponent(`<img src=x onerror=__xss('csp-success')>`)}`,
    `/${PREFIX}/no-such-page`,
  ]) {
    await page.goto(url);
    await settle(page, url);
  }
  // The API's own pages, opened as pages (a damaged login link, Log out of a client that does not exist), with
  // payloads in the address they echo nothing of.
  for (const url of [
    `/api/${PREFIX}/login/link?token=${encodeURIComponent(`"><img src=x onerror=__xss('token')>`)}`,
    `/api/${encodeURIComponent(`<svg onload=__xss('client')>`)}/logout`,
    `/api/no-such-client-${Date.now().toString(36)}/logout`,
  ]) {
    await page.goto(url);
    await page.waitForLoadState('load');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await page.waitForTimeout(150);
  }
  expect(documents.length).toBeGreaterThanOrEqual(10);
  for (const { url, csp } of documents) {
    expect(csp, url).toMatch(/script-src 'self'(;|$)/);
    expect(csp, url).toContain("object-src 'none'");
    expect(csp, url).toContain("base-uri 'none'");
  }
  expect(found.calls).toEqual([]);
  expect(found.dialogs).toEqual([]);
  // A violation would mean markup got past the sanitiser and only the CSP stopped it.
  expect(found.violations).toEqual([]);
  expect(found.errors).toEqual([]);
  expect(found.requests).toEqual([]);

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

test('the importer and the staff tool refuse hostile colours, logos and related lists', async () => {
  const before = await admin('client', 'list');
  const cases = await buildRefusedContent(PREFIX);
  try {
    for (const { name, folder, message } of cases) {
      const attempt = admin('content', 'import', '--client', PREFIX, folder);
      await expect(attempt, name).rejects.toThrow(message);
    }
  } finally {
    for (const { folder } of cases) await rm(folder, { recursive: true, force: true });
  }
  for (const colour of [
    `red;}</style><script>__xss('cli-colour')</script>`,
    `url(javascript:__xss('cli-colour'))`,
    'expression(alert(1))',
  ]) {
    await expect(
      admin('client', 'update', '--prefix', PREFIX, '--primary', colour),
    ).rejects.toThrow(/--primary must be a colour/);
  }
  // Nothing was changed by the refused attempts.
  expect((await admin('client', 'list')).stdout).toBe(before.stdout);
});

test('another client sees none of it, and nothing runs there', async ({ browser }) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page);
  await loginOpen(page, 'demo');
  await settle(page, 'demo dashboard');
  await page.goto('/demo/info');
  await settle(page, 'demo info');
  const listing = JSON.stringify(await (await page.request.get('/api/demo/content')).json());
  expect(listing).not.toContain('__xss');
  expect(listing).not.toContain(PREFIX);
  const demo = (await (await page.request.get('/api/demo')).json()) as {
    name: string;
    contact: { phone: string; email: string };
  };
  expect(demo.name).not.toContain('XSS');
  expect(demo.contact.email).not.toBe(HOSTILE_EMAIL);
  // The session is demo's alone: the hostile client's content is not reachable with it.
  expect((await page.request.get(`/api/${PREFIX}/content`)).status()).toBe(401);
  expect(found.calls).toEqual([]);
  expect(found.violations).toEqual([]);
  expect(found.errors).toEqual([]);
  expect(found.requests).toEqual([]);
  await context.close();
});

test('served pages stay whole and show text as written, whatever `$` patterns it holds', async ({
  browser,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page);
  await loginOpen(page, PATTERN_PREFIX);
  for (const url of [
    `/${PATTERN_PREFIX}/dashboard`,
    `/${PATTERN_PREFIX}/article?id=patterns&type=case_study`,
  ]) {
    await page.goto(url);
    await expect(page.getByRole('main')).toBeVisible();
    await settle(page, url);
    // The page's first answers are written into its HTML: they must be there intact, and be the API's own.
    const boot = await page.evaluate(
      () => document.getElementById('portal-boot')?.textContent ?? '',
    );
    const answers = (JSON.parse(boot) as { answers: Record<string, unknown> }).answers;
    const api = (await (await page.request.get(`/api/${PATTERN_PREFIX}`)).json()) as unknown;
    expect(answers[`/api/${PATTERN_PREFIX}`], url).toEqual(api);
  }
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Title ${REPLACEMENT_PATTERNS}`);
  await expect(page.getByText(`Body ${REPLACEMENT_PATTERNS}`)).toBeVisible();
  expect(found.errors).toEqual([]);
  await context.close();
});

test("the login link's Continue page shows the names a request typed, and the client's, as text", async ({
  browser,
}) => {
  // A magic-link client of our own with a hostile name; anyone may ask for a link with names of their choosing,
  // and the Continue page names them (and, for an address that already has an account, the names it holds).
  const prefix = `${PREFIX}-m`;
  const clientName = `Link Lab </title><svg><style><img src=x onerror=__xss('continue-client')>`;
  await admin('client', 'add', '--prefix', prefix, '--name', clientName, '--login', 'magic-link');
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  const found = await trap(context, page);
  const documents = documentsOf(page);
  const user = {
    ...newUser('continue'),
    first_name: `<math><mtext><table><mglyph><style><img src=x onerror=__xss('continue-first')>`,
    last_name: `"></bdi><a href="javascript:__xss('continue-last')" autofocus onfocus=__xss('continue-last')>`,
  };
  let previous = '';
  const ask = async (details: typeof user) => {
    const since = Date.now();
    await page.goto(`/${prefix}/login`);
    await page.getByLabel('First name').fill(details.first_name);
    await page.getByLabel('Last name').fill(details.last_name);
    await page.getByLabel('Email').fill(details.email);
    await page.getByLabel('Phone').fill(details.phone);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByText('An email has been sent with a link to log in')).toBeVisible();
    // The outbox is read by the second: the first link's mail may still count as new, so wait for another.
    let link = previous;
    await expect
      .poll(async () => (link = await waitForLoginLink(details.email, since)), { timeout: 15_000 })
      .not.toBe(previous);
    previous = link;
    await page.goto(link);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Log in to ${clientName}`);
    await page.waitForTimeout(150);
  };

  // A new address: the page names the details the link was asked with, as written.
  await ask(user);
  await expect(page.getByText(`${user.first_name} ${user.last_name}`)).toBeVisible();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(new RegExp(`/${prefix}/dashboard$`));
  await context.clearCookies();

  // The same address asked again with other names: the page offers both, each as text.
  const other = {
    ...user,
    first_name: `＜img src=x onerror=__xss('continue-fullwidth')＞`,
    last_name: `<iframe srcdoc="&lt;script&gt;parent.__xss('continue-srcdoc')&lt;/script&gt;">`,
  };
  await ask(other);
  await expect(page.getByText(`${other.first_name} ${other.last_name}`)).toBeVisible();
  await expect(page.getByText(`${user.first_name} ${user.last_name}`)).toBeVisible();
  const live = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter(
        (element) =>
          !['main', 'h1', 'p', 'bdi', 'form', 'input', 'button', 'a'].includes(element.localName) ||
          [...element.attributes].some((attribute) => attribute.name.startsWith('on')),
      )
      .map((element) => element.localName),
  );
  expect(live).toEqual([]);
  expect(found.calls).toEqual([]);
  expect(found.dialogs).toEqual([]);
  expect(found.errors).toEqual([]);
  for (const { url, csp } of documents) expect(csp, url).toMatch(/script-src 'self'(;|$)/);
  await context.close();
});
