import { expect, loginOpen, newUser, test } from './fixtures';
import { settled, trap } from './hostile-fixtures/browser';

/**
 * Hostile addresses typed or followed by a logged-in user of `demo`: the article and search pages' parameters, odd
 * paths, an unknown client, the login link's Continue page and the due-diligence thank-you page. Every HTML answer
 * carries the CSP, nothing is reflected as markup, and every page is drawn: never blank, never raw JSON.
 */
const PAYLOADS: { kind: string; value: string; raw?: boolean }[] = [
  { kind: 'script', value: `<script>__xss('script')</script>` },
  { kind: 'attribute', value: `"><img src=x onerror=__xss('attribute')>` },
  { kind: 'javascript: URL', value: `javascript:__xss('url')` },
  { kind: 'long', value: 'a'.repeat(3000) },
  { kind: 'long with spaces', value: 'word '.repeat(600) },
  { kind: 'RTL override', value: '\u202Eevil.exe\u202C' },
  { kind: 'template', value: '{{7*7}} ${7*7} $& $`' },
  { kind: 'parameter smuggling', value: 'long&type=insight&search=x' },
  { kind: 'path', value: '../../api/demo/logout' },
  { kind: 'undecodable %', value: '%ZZ%', raw: true },
  { kind: 'truncated UTF-8', value: '%E0%A4%A', raw: true },
];
const encoded = (payload: { value: string; raw?: boolean }) =>
  payload.raw ? payload.value : encodeURIComponent(payload.value);

test.describe.configure({ mode: 'serial' });

test('hostile article and search parameters: pages drawn, shown as text, nothing runs, no technical message', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page, new URL(baseURL ?? '').origin);
  await loginOpen(page, 'demo', newUser('addresses'));

  for (const payload of PAYLOADS) {
    const value = encoded(payload);
    for (const url of [
      `/demo/article?id=${value}&type=${value}`,
      `/demo/article?id=${value}&type=case_study`,
      `/demo/article?id=${value}&type=insight`,
    ]) {
      await page.goto(url);
      // An id the API cannot look up (over 100 characters too) is simply no article: not a parameter error.
      await expect(page.getByRole('heading', { level: 1 }), url.slice(0, 80)).toHaveText(
        'Article not found',
      );
      expect(await settled(page), `${payload.kind}: ${url.slice(0, 80)}`).toEqual([]);
    }
    const search = `/demo/search-results?search=${value}`;
    await page.goto(search);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Search Results');
    // Searched and answered (results or 'No results found'), whatever its length: never the API's refusal.
    await expect(
      page
        .getByRole('main')
        .getByText(/^(No results found|Case Studies|Insights|Information)$/)
        .first(),
    ).toBeVisible();
    expect(await settled(page), `${payload.kind}: search`).toEqual([]);
    const shown = (await page.getByRole('main').locator('p').first().textContent()) ?? '';
    if (!payload.raw) {
      // As searched: the invisible direction marks dropped (they match nothing), cut to 200 characters.
      const expected = Array.from(payload.value.replace(/[\u202A-\u202E]/g, '').trim())
        .slice(0, 200)
        .join('')
        .trim();
      expect(shown, payload.kind).toBe(`Results for “${expected}”`);
      await expect(page.getByRole('main').locator('p bdi').first()).toHaveText(expected);
    }
  }

  // The due-diligence thank-you page with parameters of its own: shown once, nothing reflected.
  for (const query of [
    `success=1&x=${encodeURIComponent(`<script>__xss('dd')</script>`)}`,
    'utm_source=mail&success=1&success=0',
    `success=1#${encodeURIComponent(`<img src=x onerror=__xss('dd-hash')>`)}`,
  ]) {
    await page.goto(`/demo/due-diligence?${query}`);
    await expect(
      page.getByText('Thank you we have received your submission and will be in touch shortly'),
    ).toBeVisible();
    expect(await settled(page), query).toEqual([]);
  }
  for (const query of ['success=0&success=1', 'success=true', 'success=1%20']) {
    await page.goto(`/demo/due-diligence?${query}`);
    await expect(page.getByRole('button', { name: /submit/i })).toBeVisible();
  }

  expect(found.calls, 'script that ran').toEqual([]);
  expect(found.dialogs).toEqual([]);
  expect(found.violations).toEqual([]);
  expect(found.errors).toEqual([]);
  expect(found.requests, 'requests the addresses made').toEqual([]);
  for (const document of found.documents) {
    expect(document.csp, document.url).toMatch(/script-src 'self'(;|$)/);
    expect(document.type, document.url).toContain('text/html');
  }
  const me = (await (await page.request.get('/api/demo')).json()) as { logged_in: boolean };
  expect(me.logged_in, 'still logged in').toBe(true);
  await context.close();
});

test('odd paths: the browser normalises or the server answers 404 with the CSP; unknown clients get the 404 page', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page, new URL(baseURL ?? '').origin);
  await loginOpen(page, 'demo', newUser('paths'));

  // `..` is resolved by the browser: another client's page, where demo's session counts for nothing.
  for (const path of ['/demo/../northbank/dashboard', '/demo/%2e%2e/northbank/dashboard']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/northbank\/(dashboard|login)$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Northbank Capital Partners');
    expect(await settled(page), path).toEqual([]);
  }
  // A prefix that is not one (capitals, an encoded slash): a 404 with the CSP, shown as the portal's own 404
  // page (it used to be the API's JSON, shown raw).
  for (const path of ['/DEMO/', '/DEMO/dashboard', '/demo%2f', '/demo%2fdashboard']) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
    expect(response?.headers()['content-security-policy'], path).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText('404 Not Found');
  }
  // A well-formed prefix nobody has, a page that does not exist, the link page under the wrong path.
  for (const path of [
    '/unknown-client/login',
    '/unknown-client/dashboard',
    '/demo/no-such-page',
    '/demo/login/link?token=x',
  ]) {
    const response = await page.goto(path);
    // The status says so too (the spec: an unmatched URL gives 404 Not Found), not only the page.
    expect(response?.status(), path).toBe(404);
    await expect(page.getByRole('heading', { level: 1 }), path).toHaveText('404 Not Found');
  }
  expect(found.calls).toEqual([]);
  expect(found.errors).toEqual([]);
  for (const document of found.documents) expect(document.csp, document.url).toBeDefined();
  await context.close();
});

test("the login link's Continue page: the token is kept as text, never markup; a damaged link says so", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page, new URL(baseURL ?? '').origin);
  // A token with a character no token has (markup, quotes, a direction mark, an entity) is a damaged link: the
  // invalid-link page at once, the token never written into it.
  for (const token of [
    `"><script>__xss('token')</script>`,
    `' autofocus onfocus=__xss('token-attr') x='`,
    '\u202Eevil',
    '&amp;&#39;&lt;',
  ]) {
    const response = await page.goto(
      `/api/northbank/login/link?token=${encodeURIComponent(token)}`,
    );
    expect(response?.status(), token).toBe(400);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This login link is invalid or has expired',
    );
    expect(await response?.text(), token).not.toContain(token);
    expect(
      await page.locator('body *').evaluateAll((all) => all.map((e) => e.localName)),
    ).not.toContain('script');
  }
  // A token of the right shape gets the Continue page, kept as the form's value.
  const shaped = 'A'.repeat(43);
  await page.goto(`/api/northbank/login/link?token=${shaped}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'Log in to Northbank Capital Partners',
  );
  await expect(page.locator('input[name="token"]')).toHaveValue(shaped);
  await expect(page.locator('form')).toHaveAttribute('action', '/api/northbank/login/link');
  for (const query of ['token=', `token=${'a'.repeat(201)}`, 'token=a&token=b', '']) {
    const response = await page.goto(`/api/northbank/login/link?${query}`);
    expect(response?.status(), query).toBe(400);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'This login link is invalid or has expired',
    );
  }
  // Pressing Continue with a token no one was sent: the same invalid-link page, nothing logged in.
  await page.goto(`/api/northbank/login/link?token=${shaped}`);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(
    'This login link is invalid or has expired',
  );
  const me = (await (await page.request.get('/api/northbank')).json()) as { logged_in: boolean };
  expect(me.logged_in).toBe(false);
  expect(found.calls).toEqual([]);
  expect(found.dialogs).toEqual([]);
  expect(found.violations).toEqual([]);
  await context.close();
});
