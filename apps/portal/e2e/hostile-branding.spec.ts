import { rm } from 'node:fs/promises';

import { expect, loginOpen, newUser, test } from './fixtures';
import { admin, openDatabase, settled, trap } from './hostile-fixtures/browser';
import { buildHostileContent } from './hostile-fixtures/content';

/**
 * Client settings as an attacker who got a value into them (docs/security.md): the name, the colours, the logo, the
 * contact phone and e-mail, the video. Each is tried where staff set it (the CLI, client.yml) and, for what those
 * refuse, straight in the database, to see what the portal does with it.
 */
const PREFIX = `hostile-b-${Date.now().toString(36)}`;
const NAME = `Hostile </title><script>__xss('name')</script> $& $\` {{7*7}} \u202Egnp.exe`;
const PHONE = `tel:+44 20;ext=1 javascript:__xss('phone')`;
const EMAIL = `javascript:__xss('email')//@evil.example`;
let folder: string | undefined;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  folder = await buildHostileContent(PREFIX);
  // The staff tool refuses the right-to-left override (U+202E) in a name; a row written before it did, or
  // straight into the database, may still hold one: the name goes in without it, then as a whole in the row.
  await admin(
    'client',
    'add',
    '--prefix',
    PREFIX,
    '--name',
    NAME.replace('\u202E', ''),
    '--login',
    'open',
  );
  await admin('client', 'update', '--prefix', PREFIX, '--phone', PHONE, '--email', EMAIL);
  await admin('content', 'import', '--client', PREFIX, folder);
  const db = openDatabase();
  try {
    db.prepare('UPDATE clients SET name = ? WHERE prefix = ?').run(NAME, PREFIX);
  } finally {
    db.close();
  }
});

test.afterAll(async () => {
  if (folder) await rm(folder, { recursive: true, force: true });
});

/** Sets columns of the client's row (and bumps its content version, so no cached answer hides the change). */
function tamper(changes: { branding?: Record<string, unknown>; contact_email?: string }) {
  const db = openDatabase();
  try {
    const row = db.prepare('SELECT id, branding FROM clients WHERE prefix = ?').get(PREFIX) as {
      id: string;
      branding: string;
    };
    if (changes.branding) {
      const branding = { ...(JSON.parse(row.branding) as object), ...changes.branding };
      db.prepare('UPDATE clients SET branding = ? WHERE id = ?').run(
        JSON.stringify(branding),
        row.id,
      );
    }
    if (changes.contact_email !== undefined) {
      db.prepare('UPDATE clients SET contact_email = ? WHERE id = ?').run(
        changes.contact_email,
        row.id,
      );
    }
    db.prepare('UPDATE clients SET content_version = content_version + 1 WHERE id = ?').run(row.id);
    return JSON.parse(row.branding) as Record<string, unknown>;
  } finally {
    db.close();
  }
}

test('the staff tool refuses hostile colours, contact e-mails and names, changing nothing', async () => {
  const before = (await admin('client', 'list')).stdout;
  const refused: [string, string][] = [
    ['--primary', 'var(--x)'],
    ['--primary', `#${'a'.repeat(10_000)}`],
    ['--accent', `red;}</style><script>__xss('colour')</script>`],
    ['--accent', `url(javascript:__xss('colour'))`],
    ['--primary', 'expression(__xss(1))'],
    // A mailto: link would read these as a hidden copy, a second recipient, or no address at all.
    ['--email', 'a@b.co?bcc=x@y.z'],
    ['--email', 'a@b.co?bcc=spy%40evil.example'],
    ['--email', 'help?bcc=spy%40evil.example&body=Hi@b.co'],
    ['--email', 'a@b.co%2Cspy%40evil.example'],
    ['--email', 'javascript:alert(1)'],
    ['--name', 'Two\nlines'],
    ['--name', 'Acme \u202Egnp.exe'],
    ['--name', 'n'.repeat(10_000)],
    ['--phone', '0207\r\nBcc: spy@evil.example'],
  ];
  for (const [option, value] of refused) {
    await expect(
      admin('client', 'update', '--prefix', PREFIX, option, value),
      `${option} ${value.slice(0, 40)}`,
    ).rejects.toThrow();
  }
  expect((await admin('client', 'list')).stdout).toBe(before);
});

test('a hostile name, phone and e-mail reach every page as text: nothing runs or leaves, links say what they show', async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const found = await trap(context, page, new URL(baseURL ?? '').origin);

  await page.goto(`/${PREFIX}/login`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(NAME);
  await expect(page).toHaveTitle(`Log in – ${NAME}`);
  expect(await settled(page)).toEqual([]);
  // The login link's pages put the name inside their own sentences: its U+202E stays inside it.
  await page.goto(`/api/${PREFIX}/login/link?token=`);
  await expect(page.locator('p bdi')).toHaveText(NAME);
  await expect(page.locator('p').first()).toContainText(`${NAME} login page.`);
  await loginOpen(page, PREFIX, newUser('branding'));

  const pages = [
    `/${PREFIX}/dashboard`,
    `/${PREFIX}/info`,
    `/${PREFIX}/article?id=long&type=case_study`,
    `/${PREFIX}/search-results?search=Related`,
    `/${PREFIX}/calculator/building-warranty`,
    `/${PREFIX}/due-diligence`,
    `/${PREFIX}/due-diligence?success=1`,
  ];
  for (const url of pages) {
    await page.goto(url);
    await expect(page.getByRole('main')).toBeVisible();
    expect(await settled(page), url).toEqual([]);
    const contact = page.getByRole('region', { name: 'Contact the team' }).getByRole('link');
    await expect(contact.nth(0)).toHaveAttribute('href', /^tel:\+?\d*$/);
    await expect(contact.nth(1)).toHaveText(EMAIL);
  }
  await expect(page).toHaveTitle(`Request Due Diligence – ${NAME}`);

  // An address no supported path takes any longer (the CLI refuses it), as an older version stored it: the link
  // goes to that one address, never with a hidden copy or a body of someone else's choosing.
  const trick = 'help@b.co?bcc=spy%40evil.example&body=Click%20https://evil.example/';
  tamper({ contact_email: trick });
  await page.goto(`/${PREFIX}/dashboard`);
  const mail = page.getByRole('region', { name: 'Contact the team' }).getByRole('link').nth(1);
  await expect(mail).toHaveText(trick);
  const href = (await mail.getAttribute('href')) ?? '';
  const link = new URL(href);
  expect(link.protocol).toBe('mailto:');
  expect(link.search, href).toBe('');
  expect(decodeURIComponent(link.pathname)).toBe(trick);
  tamper({ contact_email: EMAIL });

  expect(found.calls, 'script that ran').toEqual([]);
  expect(found.dialogs).toEqual([]);
  expect(found.violations, 'CSP violations').toEqual([]);
  expect(found.errors).toEqual([]);
  expect(found.requests, 'requests the settings made').toEqual([]);
  expect(found.documents.length).toBeGreaterThanOrEqual(pages.length + 2);
  for (const document of found.documents) {
    expect(document.csp, document.url).toMatch(/script-src 'self'(;|$)/);
  }
  const me = (await (await page.request.get(`/api/${PREFIX}`)).json()) as { logged_in: boolean };
  expect(me.logged_in, 'still logged in').toBe(true);
  await context.close();
});

test('colours, logos and video the importer refuses, put in the database: nothing runs, leaves the site or logs out', async ({
  browser,
  baseURL,
}) => {
  // Eight cases, each a new context, a login and two pages: about 45 s alone, past the 60 s default on a busy
  // machine (it timed out so in the seventeenth session's full run beside the API suite).
  test.slow();
  const origin = new URL(baseURL ?? '').origin;
  const cases: { name: string; branding?: Record<string, unknown>; video?: string[] }[] = [
    {
      name: 'colours that close the style',
      branding: {
        primary: `red;}</style><script>__xss('primary')</script>`,
        accent: `url(javascript:__xss('accent'))`,
      },
    },
    {
      name: 'colours as CSS functions',
      branding: { primary: 'var(--x)', accent: 'expression(__xss(1))' },
    },
    { name: 'a colour of 10,000 characters', branding: { primary: `#${'a'.repeat(10_000)}` } },
    { name: 'a javascript: logo', branding: { logo_url: `javascript:__xss('logo')` } },
    {
      name: 'a data: logo',
      branding: { logo_url: `data:text/html,<script>__xss('logo-data')</script>` },
    },
    { name: 'a logo on another site', branding: { logo_url: '//evil.example/logo.png' } },
    { name: 'the logout as logo', branding: { logo_url: `/api/${PREFIX}/logout` } },
    {
      name: 'the logout as video',
      video: [`/api/${PREFIX}/logout`, '//evil.example/p.png', `/api/${PREFIX}/logout`],
    },
  ];
  const db = openDatabase();
  const { id } = db.prepare('SELECT id FROM clients WHERE prefix = ?').get(PREFIX) as {
    id: string;
  };
  const video = db
    .prepare('SELECT src, poster, captions FROM videos WHERE client_id = ?')
    .get(id) as {
    src: string;
    poster: string | null;
    captions: string | null;
  };
  db.close();
  for (const item of cases) {
    const original = tamper({ branding: item.branding ?? {} });
    if (item.video) {
      const write = openDatabase();
      write
        .prepare('UPDATE videos SET src = ?, poster = ?, captions = ? WHERE client_id = ?')
        .run(...item.video, id);
      write.close();
    }
    const context = await browser.newContext();
    const page = await context.newPage();
    const found = await trap(context, page, origin);
    try {
      await page.goto(`/${PREFIX}/login`);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(NAME);
      await loginOpen(page, PREFIX, newUser('tamper'));
      for (const url of [`/${PREFIX}/dashboard`, `/${PREFIX}/article?id=long&type=case_study`]) {
        await page.goto(url);
        await expect(page.getByRole('main')).toBeVisible();
        // The video is not played: Chromium drops the page when a <source> that failed is played.
        expect(await settled(page), `${item.name}: ${url}`).toEqual([]);
      }
      expect(found.calls, item.name).toEqual([]);
      expect(found.dialogs, item.name).toEqual([]);
      expect(found.errors, item.name).toEqual([]);
      expect(found.offsite, `${item.name}: requests that left the site`).toEqual([]);
      const me = (await (await page.request.get(`/api/${PREFIX}`)).json()) as {
        logged_in: boolean;
      };
      expect(me.logged_in, `${item.name}: still logged in`).toBe(true);
      for (const document of found.documents) expect(document.csp, document.url).toBeDefined();
    } finally {
      await context.close();
      tamper({ branding: original });
      const write = openDatabase();
      write
        .prepare('UPDATE videos SET src = ?, poster = ?, captions = ? WHERE client_id = ?')
        .run(video.src, video.poster, video.captions, id);
      write.close();
    }
  }
});
