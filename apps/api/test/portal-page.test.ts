import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cp, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { encodePage, jsonForScript, portalShellLoader } from '../src/services/portal-page.js';
import {
  FIXTURE_PORTAL,
  buildTestApp,
  databases,
  loginMagic,
  loginOpen,
  type TestApp,
} from './helper.js';

/** What a browser sends when a person opens a page. */
const NAVIGATION = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** The answers written into a page, or undefined when the page has none. */
function bootOf(html: string): Record<string, unknown> | undefined {
  const match = /<script type="application\/json" id="portal-boot">(.*?)<\/script>/s.exec(html);
  if (match?.[1] === undefined) return undefined;
  return (JSON.parse(match[1]) as { answers: Record<string, unknown> }).answers;
}

/**
 * The page's own chunks named in its data (the portal's entry preloads them once the HTML is painted), or [] when
 * the page has no data. The HTML itself never names them, so the first paint does not wait for them.
 */
function preloads(html: string): string[] {
  expect(html).not.toContain('rel="modulepreload"');
  const match = /<script type="application\/json" id="portal-boot">(.*?)<\/script>/s.exec(html);
  if (match?.[1] === undefined) return [];
  return (JSON.parse(match[1]) as { modules: string[] }).modules;
}

describe('jsonForScript', () => {
  it('should never close the script element or open a comment, and keep the value', () => {
    const value = {
      name: '</script><script>alert(1)</script><!-- & -->',
      lines: 'a\u2028b\u2029c',
      nested: ['</SCRIPT>', '<\u0000>'],
    };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });
});

describe('portalShellLoader', () => {
  it('should keep the shell in memory and read it again after a rebuild', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'firm-shell-'));
    try {
      await writeFile(path.join(dist, 'index.html'), '<p>build 1</p>');
      const load = portalShellLoader(dist);
      expect(await load()).toEqual({ html: '<p>build 1</p>', preloads: { pages: {}, hub: [] } });
      expect(await load()).toBe(await load());
      await mkdir(path.join(dist, '.vite'));
      await writeFile(
        path.join(dist, '.vite', 'route-preloads.json'),
        JSON.stringify({ pages: { login: ['assets/login-2.js'] }, hub: [] }),
      );
      await writeFile(path.join(dist, 'index.html'), '<p>build 2</p>');
      const later = new Date(Date.now() + 5_000);
      await utimes(path.join(dist, 'index.html'), later, later);
      expect(await load()).toEqual({
        html: '<p>build 2</p>',
        preloads: { pages: { login: ['assets/login-2.js'] }, hub: [] },
      });
    } finally {
      await rm(dist, { recursive: true, force: true });
    }
  });
});

// Found by the eighteenth session's fault probe: with index.html gone (a deploy replacing the built portal),
// every page was a 500 "Internal server error".
describe('the built portal gone while the server runs', () => {
  it('should answer its pages 503, a page to a person and JSON to a script, and serve them once it is back', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'firm-dist-'));
    await cp(FIXTURE_PORTAL, dist, { recursive: true });
    const t = await buildTestApp({ name: 'sqlite', url: null }, { PORTAL_DIST: dist });
    try {
      const open = (accept?: string) =>
        t.app.inject({
          method: 'GET',
          url: '/demo/login',
          headers: accept === undefined ? {} : { accept },
        });
      expect((await open(NAVIGATION)).statusCode).toBe(200);
      const html = await readFile(path.join(dist, 'index.html'));
      await rm(path.join(dist, 'index.html'));

      const page = await open(NAVIGATION);
      expect(page.statusCode).toBe(503);
      expect(page.headers['retry-after']).toBe('5');
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toContain('<h1>The portal is being updated</h1>');
      const script = await open();
      expect(script.statusCode).toBe(503);
      expect(script.json()).toEqual({
        error: 'The portal is being updated. Please try again in a moment.',
      });

      await writeFile(path.join(dist, 'index.html'), html);
      expect((await open(NAVIGATION)).statusCode).toBe(200);
    } finally {
      await t.close();
      await rm(dist, { recursive: true, force: true });
    }
  });
});

describe('encodePage', () => {
  const html = `<!doctype html><p>${'Harbourside '.repeat(500)}</p>`;
  it('should send Brotli when accepted, else gzip, else the HTML as it is', async () => {
    const br = await encodePage(html, 'gzip, deflate, br, zstd');
    expect(br.encoding).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(html);
    const gz = await encodePage(html, 'gzip');
    expect(gz.encoding).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(html);
    for (const header of [undefined, '', 'identity', 'br;q=0, gzip;q=0.0']) {
      const plain = await encodePage(html, header);
      expect(plain.encoding, String(header)).toBeUndefined();
      expect(plain.body.toString()).toBe(html);
    }
  });
});

describe.each(databases)('portal pages ($name)', (target) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(target);
  });
  afterAll(async () => {
    await t.close();
  });

  it('should write the client answer into the login page, with its chunks and logo preloaded', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/demo/login' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers.vary).toContain('Accept-Encoding');
    const answers = bootOf(response.body);
    const client = await t.app.inject({ method: 'GET', url: '/api/demo' });
    expect(answers).toEqual({ '/api/demo': client.json() });
    expect(answers?.['/api/demo']).toMatchObject({ logged_in: false, email: '' });
    // The app's chunks, then the login page's own (it does not sit in the hub), each once.
    expect(preloads(response.body)).toEqual([
      '/assets/start-eee555.js',
      '/assets/framework-fff666.js',
      '/assets/button-bbb222.js',
      '/assets/login-aaa111.js',
    ]);
    const logo = (client.json() as { branding: { logo_url: string } }).branding.logo_url;
    expect(response.body).toContain(`<link rel="preload" as="image" href="${logo}">`);
  });

  it("should show a person who opens an address no page has the portal's 404 page, not JSON", async () => {
    const navigate = { 'sec-fetch-dest': 'document', accept: 'text/html' };
    for (const url of [
      '/DEMO/dashboard',
      '/demo%2fdashboard',
      '/-demo/',
      '/%E2%80%AEdemo/login',
      // Refused by the file server: its 404.
      '//demo/dashboard',
      '/demo/dashboard%00',
    ]) {
      const page = await t.app.inject({ method: 'GET', url, headers: navigate });
      expect(page.statusCode, url).toBe(404);
      expect(page.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(page.headers['cache-control'], url).toBe('no-store');
      expect(page.headers['content-security-policy'], url).toBeDefined();
      expect(page.body, url).toContain('<div id="root">');
      expect(bootOf(page.body), url).toBeUndefined(); // no data: the portal finds out for itself
      // A script or a fetch keeps the `{ error }` answer.
      const fetched = await t.app.inject({
        method: 'GET',
        url,
        headers: { 'sec-fetch-dest': 'empty' },
      });
      expect(fetched.statusCode, url).toBe(404);
      expect(fetched.json(), url).toEqual({ error: 'Not found.' });
    }
    // Media and assets are never pages.
    const media = await t.app.inject({
      method: 'GET',
      url: '/media/DEMO/x.svg',
      headers: navigate,
    });
    expect(media.headers['content-type']).toContain('application/json');
  });

  it("should write text holding replacement patterns ($` $' $$ $&) exactly as it is", async () => {
    const first = "Ann $` $' $$ $& $1";
    const cookie = await loginOpen(t.app, 'demo', {
      first_name: first,
      email: 'dollar@example.com',
    });
    const response = await t.app.inject({
      method: 'GET',
      url: '/demo/dashboard',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    // Before, `$\`` pasted the page's HTML before </body> into the boot data: a second #root, raw JSON shown.
    expect(response.body.match(/<div id="root">/g)).toHaveLength(1);
    expect(response.body.match(/<\/body>/g)).toHaveLength(1);
    expect(bootOf(response.body)?.['/api/demo']).toMatchObject({ first_name: first });
  });

  it("should write the dashboard's answers for a logged-in user, exactly as the API gives them", async () => {
    const cookie = await loginOpen(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: '/demo/dashboard',
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    const answers = bootOf(response.body);
    expect(Object.keys(answers ?? {}).sort()).toEqual([
      '/api/demo',
      '/api/demo/content',
      '/api/demo/video',
    ]);
    for (const path of Object.keys(answers ?? {})) {
      const direct = await t.app.inject({ method: 'GET', url: path, headers: { cookie } });
      expect(answers?.[path], path).toEqual(direct.json());
    }
    expect(answers?.['/api/demo']).toMatchObject({ logged_in: true, email: 'ada@example.com' });
    // Hub pages preload the app's chunks, the hub layout and then the page's own chunks, each once.
    expect(preloads(response.body)).toEqual([
      '/assets/start-eee555.js',
      '/assets/framework-fff666.js',
      '/assets/button-bbb222.js',
      '/assets/app-root-ddd444.js',
      '/assets/dashboard-ccc333.js',
    ]);
    const poster = (answers?.['/api/demo/video'] as { poster: string }).poster;
    expect(response.body).toContain(`<link rel="preload" as="image" href="${poster}">`);
  });

  it('should write nothing that needs a session without one', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/demo/login' });
    expect(response.statusCode).toBe(200);
    expect(Object.keys(bootOf(response.body) ?? {})).toEqual(['/api/demo']);
  });

  // Found by the twenty-fourth session's portal probe: a hub page opened with no session was served, and the
  // portal fetched the hub's code, the page's and (for a calculator) the pricing rules before it went on to the
  // login page, which was to load none of them.
  it('should send a hub page opened with no session to the login page, writing nothing', async () => {
    for (const url of [
      '/demo/dashboard',
      '/demo',
      '/demo/',
      '/demo/calculator/btr-warranty',
      '/demo/Calculator/BTR-warranty/',
      '/northbank/article?id=x&type=insight',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location, url).toBe(`/${url.split('/')[1] ?? ''}/login`);
      expect(response.headers['cache-control'], url).toBe('no-store');
      expect(response.body, url).toBe('');
    }
    // An encoded slash makes one segment, as the router reads it: no page, so a 404 page, not the login page.
    for (const url of ['/demo/calculator%2Fbuilding-warranty', '/demo/calculator%2fbtr-warranty']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.statusCode, url).toBe(404);
    }
    // The login page itself, an address no page has, and a logged-in user's hub page are served as before.
    const login = await t.app.inject({ method: 'GET', url: '/demo/Login' });
    expect(login.statusCode).toBe(200);
    expect(login.headers['content-type']).toContain('text/html');
    const none = await t.app.inject({
      method: 'GET',
      url: '/demo/no-such-page',
      headers: { accept: 'text/html' },
    });
    expect(none.statusCode).toBe(404);
    const cookie = await loginOpen(t.app);
    const hub = await t.app.inject({
      method: 'GET',
      url: '/demo/calculator/btr-warranty',
      headers: { cookie },
    });
    expect(hub.statusCode).toBe(200);
    expect(bootOf(hub.body)?.['/api/demo']).toMatchObject({ logged_in: true });
    const encoded = await t.app.inject({
      method: 'GET',
      url: '/demo/calculator%2Fbuilding-warranty',
      headers: { cookie, accept: 'text/html' },
    });
    expect(encoded.statusCode).toBe(404);
  });

  it("should never write one client's data into another client's page", async () => {
    const demo = await loginOpen(t.app, 'demo', { email: 'only-demo@example.com' });
    const northbank = await loginMagic(t, 'northbank', { email: 'only-northbank@example.com' });
    for (const [prefix, cookie, other] of [
      ['northbank', demo, 'only-demo@example.com'],
      ['demo', northbank, 'only-northbank@example.com'],
    ] as const) {
      const page = await t.app.inject({
        method: 'GET',
        url: `/${prefix}/login`,
        headers: { cookie },
      });
      const answers = bootOf(page.body);
      expect(Object.keys(answers ?? {}), prefix).toEqual([`/api/${prefix}`]);
      expect(answers?.[`/api/${prefix}`], prefix).toMatchObject({ logged_in: false });
      expect(page.body, prefix).not.toContain(other);
      // Another client's session opens none of this client's hub pages.
      const hub = await t.app.inject({
        method: 'GET',
        url: `/${prefix}/dashboard`,
        headers: { cookie },
      });
      expect(hub.statusCode, prefix).toBe(302);
      expect(hub.headers.location, prefix).toBe(`/${prefix}/login`);
      expect(hub.body, prefix).toBe('');
    }
  });

  it("should write an article's answer under the key the portal uses", async () => {
    const cookie = await loginOpen(t.app);
    const response = await t.app.inject({
      method: 'GET',
      url: '/demo/article?type=case_study&id=harbour-quay',
      headers: { cookie },
    });
    const key = `/api/demo/article?${new URLSearchParams({ id: 'harbour-quay', type: 'case_study' }).toString()}`;
    expect(Object.keys(bootOf(response.body) ?? {})).toEqual(['/api/demo', key]);
    const missing = await t.app.inject({
      method: 'GET',
      url: '/demo/article?type=case_study&id=no-such-article',
      headers: { cookie },
    });
    expect(Object.keys(bootOf(missing.body) ?? {})).toEqual(['/api/demo']);
  });

  it('should serve an unknown client the plain page with a 404 (the portal shows its 404 page)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/no-such-client/login',
      headers: { accept: NAVIGATION },
    });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(bootOf(response.body)).toBeUndefined();
    expect(preloads(response.body)).toEqual([]);
  });

  it('should show a person who opens a malformed address the portal page with a 404, a script the JSON 400', async () => {
    for (const url of ['/demo/%E0%A4%A', '/demo/article%ZZ', '/%ZZ/login']) {
      const opened = await t.app.inject({ method: 'GET', url, headers: { accept: NAVIGATION } });
      expect(opened.statusCode, url).toBe(404);
      expect(opened.headers['content-type'], url).toBe('text/html; charset=utf-8');
      expect(opened.headers['cache-control'], url).toBe('no-store');
      expect(opened.headers['content-security-policy'], url).toContain("script-src 'self'");
      expect(opened.body, url).toContain('<div id="root">');
      const fetched = await t.app.inject({ method: 'GET', url });
      expect(fetched.statusCode, url).toBe(400);
      expect(fetched.json(), url).toEqual({
        error: 'Bad request: the address is not well formed.',
      });
    }
    // The API's own addresses keep their JSON, opened or not.
    const api = await t.app.inject({
      method: 'GET',
      url: '/api/%ZZ/content',
      headers: { accept: NAVIGATION },
    });
    expect(api.statusCode).toBe(400);
    expect(api.json()).toEqual({ error: 'Bad request: the address is not well formed.' });
  });

  it('should answer 404 for a path the router has no page for, and 200 for every page it has', async () => {
    const cookie = await loginOpen(t.app);
    const pages = [
      '/demo',
      '/demo/',
      '/demo/login',
      '/demo/dashboard',
      '/demo/Dashboard/',
      '/demo/info',
      '/demo/search-results?search=x',
      '/demo/article?id=x&type=insight',
      '/demo/sample-report',
      '/demo/due-diligence',
      '/demo/insurance-framework',
      '/demo/insurance-guide',
      '/demo/calculator/building-warranty',
      '/demo/calculator/btr-warranty',
      '/demo/calculator/contractors-all-risks',
    ];
    for (const url of pages) {
      const response = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(response.statusCode, url).toBe(200);
    }
    for (const url of [
      '/demo/no-such-page',
      '/demo/calculator',
      '/demo/building-warranty',
      '/demo/dashboard/x',
      '/demo/login/link',
      '/demo/%64ashboard%2Fx',
      // One segment to React Router, which keeps an encoded slash encoded: the portal shows its 404 page.
      '/demo/calculator%2Fbtr-warranty',
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url,
        headers: { cookie, accept: NAVIGATION },
      });
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['content-type'], url).toBe('text/html; charset=utf-8');
      // The client is known: its own answer is written, so the 404 page shows the client's branding.
      expect(Object.keys(bootOf(response.body) ?? {}), url).toEqual(['/api/demo']);
      // A script or a fetch (not opening a page) gets the `{ error }` every other 404 is.
      const fetched = await t.app.inject({ method: 'GET', url, headers: { cookie } });
      expect(fetched.statusCode, url).toBe(404);
      expect(fetched.json(), url).toEqual({ error: 'Not found.' });
      expect(fetched.headers['cache-control'], url).toBe('no-store');
    }
  });

  it('should take page names as data, never as object properties', async () => {
    const cookie = await loginOpen(t.app);
    for (const page of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/demo/${page}`,
        headers: { cookie, accept: NAVIGATION },
      });
      expect(response.statusCode, page).toBe(404);
      expect(Object.keys(bootOf(response.body) ?? {}), page).toEqual(['/api/demo']);
      expect(preloads(response.body), page).toEqual([]);
    }
  });

  it('should preload only asset files named in the build map', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/demo/evil',
      headers: { accept: NAVIGATION },
    });
    expect(response.statusCode).toBe(404);
    expect(preloads(response.body)).toEqual([
      '/assets/start-eee555.js',
      '/assets/framework-fff666.js',
      '/assets/button-bbb222.js',
      '/assets/app-root-ddd444.js',
    ]);
    expect(response.body).not.toContain('alert(1)');
  });

  it('should compress the page when the browser accepts it', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/demo/login',
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(response.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(response.rawPayload).toString();
    expect(bootOf(html)?.['/api/demo']).toMatchObject({ prefix: 'demo' });
  });
});
