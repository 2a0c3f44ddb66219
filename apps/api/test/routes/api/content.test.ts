import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { KyselyPlugin, RootOperationNode } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../../src/db/connect.js';
import { findClientByPrefix } from '../../../src/repositories/clients.js';
import { MAX_RELATED, upsertContentItem } from '../../../src/repositories/content.js';
import { importContent } from '../../../src/services/content-import.js';
import { buildTestApp, databases, FIXTURE_CONTENT, loginOpen, type TestApp } from '../../helper.js';

interface Item {
  id: string;
  type: string;
  title: string;
  description_text: string;
  image_url: string | null;
}
interface Content {
  insights: Item[];
  case_studies: Item[];
  insurance: { id: string; title: string; description: string; pro_tip: string | null }[];
}

describe.each(databases)('content routes ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });
  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  /** Imports a folder into `demo` through a database connection of its own, as another process would. */
  const importFolder = async (folder: string) => {
    const other = await openDatabase(t.config);
    try {
      const client = await findClientByPrefix(other.kysely, 'demo');
      if (client === undefined) throw new Error('demo client missing');
      await importContent(other.kysely, client, folder, path.join(t.dataDir, 'media'), new Date());
    } finally {
      await other.close();
    }
  };

  describe('GET /api/{client}/content', () => {
    it('should answer the dashboard items and the topics in order', async () => {
      const response = await get('/api/demo/content');
      expect(response.statusCode).toBe(200);
      const body = response.json<Content>();
      expect(body.case_studies.map((i) => i.id)).toEqual(['harbour-quay', 'mill-lane']);
      expect(body.insights.map((i) => i.id).sort()).toEqual(['pi-levels', 'warranty-choice']);
      expect(body.case_studies[0]).toEqual({
        id: 'harbour-quay',
        type: 'case_study',
        title: 'Harbour Quay apartments',
        description_text: 'A waterside scheme that needed a warranty before the first drawdown.',
        image_url: expect.stringMatching(/^\/media\/demo\/[a-f0-9]{20}\.svg$/),
      });
      expect(body.insurance.map((i) => i.id)).toEqual([
        'structural-warranties',
        'contractors-all-risks',
      ]);
      const car = body.insurance[1];
      expect(car?.pro_tip).toContain('<strong>excess</strong>');
      expect(body.insurance[0]?.pro_tip).toBeNull();
    });

    it('should search titles and text case-insensitively', async () => {
      const byTitle = (await get('/api/demo/content?search=MILL%20lane')).json<Content>();
      expect(byTitle.case_studies.map((i) => i.id)).toEqual(['mill-lane']);
      expect(byTitle.insights).toEqual([]);
      expect(byTitle.insurance).toEqual([]);
      const byBody = (await get('/api/demo/content?search=latent%20DEFECTS')).json<Content>();
      expect(byBody.case_studies.map((i) => i.id)).toEqual(['mill-lane']);
      expect(byBody.insurance.map((i) => i.id)).toEqual(['structural-warranties']);
      const byProTip = (await get('/api/demo/content?search=excess')).json<Content>();
      expect(byProTip.insurance.map((i) => i.id)).toEqual(['contractors-all-risks']);
    });

    it('should search the words of a pro tip, never its markup', async () => {
      // The pro tip is stored as HTML (`<strong>excess</strong>`): its tags are not words of the topic.
      for (const markup of ['strong', '<strong>', 'strong>excess', '</']) {
        const found = (
          await get(`/api/demo/content?search=${encodeURIComponent(markup)}`)
        ).json<Content>();
        expect(found, markup).toEqual({ insights: [], case_studies: [], insurance: [] });
      }
    });

    it('should search any letters in any case and Unicode form, as PostgreSQL and SQLite alike', async () => {
      const folder = await mkdtemp(path.join(tmpdir(), 'firm-content-'));
      try {
        await cp(path.join(FIXTURE_CONTENT, 'demo'), folder, { recursive: true });
        const file = path.join(folder, 'case-studies', 'harbour-quay.md');
        const text = await readFile(file, 'utf8');
        await writeFile(
          file,
          text.replace('Harbour Quay apartments', 'ÉCOLE Straße Øresund ﬁnance'),
        );
        await importFolder(folder);
        // SQLite's lower() folds ASCII only: "é" never matched "É" there.
        // A decomposed É (E + combining acute) and the ﬁ ligature's letters find the same item (NFKC).
        for (const search of [
          'école',
          'ÉCOLE',
          'E\u0301cole',
          'straße',
          'øresund',
          'ØRESUND',
          'finance',
        ]) {
          const found = (
            await get(`/api/demo/content?search=${encodeURIComponent(search)}`)
          ).json<Content>();
          expect(
            found.case_studies.map((i) => i.id),
            search,
          ).toEqual(['harbour-quay']);
        }
      } finally {
        await rm(folder, { recursive: true, force: true });
        await importFolder(path.join(FIXTURE_CONTENT, 'demo'));
      }
    });

    it('should treat % and _ as characters, not wildcards', async () => {
      const percent = (await get('/api/demo/content?search=50%25')).json<Content>();
      expect(percent.insights.map((i) => i.id)).toEqual(['warranty-choice']);
      const wildcard = (await get('/api/demo/content?search=%25%25%25')).json<Content>();
      expect([...wildcard.insights, ...wildcard.case_studies, ...wildcard.insurance]).toEqual([]);
      const nothing = (await get('/api/demo/content?search=zzzz-nothing')).json<Content>();
      expect(nothing).toEqual({ insights: [], case_studies: [], insurance: [] });
    });

    it('should only show the client its own content', async () => {
      const body = (await get('/api/demo/content?search=northbank')).json<Content>();
      expect([...body.insights, ...body.case_studies, ...body.insurance]).toEqual([]);
    });

    it('should show content imported by another instance at once, never a cached copy', async () => {
      const before = (await get('/api/demo/content')).json<Content>();
      expect(before.case_studies[0]?.title).toBe('Harbour Quay apartments');
      expect((await get('/api/demo/content?search=Renamed')).json<Content>().case_studies).toEqual(
        [],
      );
      // Staff re-import the folder with a new title, through a connection of their own (the staff
      // tool, or another instance behind the load balancer): this app is not told.
      const folder = await mkdtemp(path.join(tmpdir(), 'firm-content-'));
      try {
        await cp(path.join(FIXTURE_CONTENT, 'demo'), folder, { recursive: true });
        const file = path.join(folder, 'case-studies', 'harbour-quay.md');
        const text = await readFile(file, 'utf8');
        await writeFile(file, text.replace('Harbour Quay apartments', 'Renamed Quay apartments'));
        await importFolder(folder);
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
      const after = (await get('/api/demo/content')).json<Content>();
      expect(after.case_studies.map((i) => i.title)).toContain('Renamed Quay apartments');
      const found = (await get('/api/demo/content?search=Renamed')).json<Content>();
      expect(found.case_studies.map((i) => i.id)).toEqual(['harbour-quay']);
      // Put the fixture back for the tests that follow.
      await importFolder(path.join(FIXTURE_CONTENT, 'demo'));
      expect((await get('/api/demo/content')).json<Content>()).toEqual(before);
    });

    it('should answer wholly the old content or wholly the new when an import commits mid-answer', async () => {
      // Another process imports new titles for every kind of item right after the first content list has
      // been read (a plugin on this app's own database handle runs the import at that moment).
      const folder = await mkdtemp(path.join(tmpdir(), 'firm-content-'));
      await cp(path.join(FIXTURE_CONTENT, 'demo'), folder, { recursive: true });
      for (const [file, from] of [
        ['case-studies/harbour-quay.md', 'Harbour Quay apartments'],
        ['insights/warranty-choice.md', null],
        ['topics/structural-warranties.md', null],
      ] as const) {
        const text = await readFile(path.join(folder, file), 'utf8');
        await writeFile(
          path.join(folder, file),
          from === null
            ? text.replace(/^title: (.*)$/m, 'title: NEW $1')
            : text.replace(from, `NEW ${from}`),
        );
      }
      const original = t.app.db.kysely;
      const listings = new Set<unknown>();
      let imported = false;
      const importMidway: KyselyPlugin = {
        transformQuery: ({ node, queryId }) => {
          if (JSON.stringify(node).includes('"content_items"')) listings.add(queryId);
          return node as RootOperationNode;
        },
        transformResult: async ({ queryId, result }) => {
          if (!imported && listings.has(queryId)) {
            imported = true;
            await importFolder(folder);
          }
          return result;
        },
      };
      t.app.db.kysely = original.withPlugin(importMidway);
      try {
        for (const url of [
          '/api/demo/content?search=a',
          '/api/demo/article?id=mill-lane&type=case_study',
        ]) {
          imported = false;
          const response = await get(url);
          expect(response.statusCode, url).toBe(200);
          expect(imported, url).toBe(true);
          const titles = [...response.body.matchAll(/"title":"([^"]*)"/g)].map((m) => m[1] ?? '');
          const fresh = titles.filter((title) => title.startsWith('NEW '));
          // The import came after the answer's moment: all old.
          expect(fresh, url).toEqual([]);
          await importFolder(path.join(FIXTURE_CONTENT, 'demo'));
        }
      } finally {
        t.app.db.kysely = original;
        await rm(folder, { recursive: true, force: true });
        await importFolder(path.join(FIXTURE_CONTENT, 'demo'));
      }
    });

    it('should reject unknown query parameters', async () => {
      const response = await get('/api/demo/content?q=x');
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: 'Unknown query parameter "q".' });
    });
  });

  describe('a query parameter written as a list', () => {
    // The article call requires `id`: `?id[]=x` was answered 'Missing required query parameter "id"', which sends
    // the sender looking for the wrong fault.
    it('should name the parameter as sent, not the one it is not', async () => {
      for (const [url, name] of [
        ['/api/demo/article?id[]=x', 'id[]'],
        ['/api/demo/article?id=x&id%5B%5D=y', 'id[]'],
        ['/api/demo/content?search[]=a', 'search[]'],
      ] as const) {
        const response = await get(url);
        expect(response.statusCode, url).toBe(400);
        expect(response.json()).toEqual({ error: `Unknown query parameter "${name}".` });
      }
      const missing = await get('/api/demo/article');
      expect(missing.json()).toEqual({ error: 'Missing required query parameter "id".' });
    });
  });

  describe('GET /api/{client}/article', () => {
    it('should answer the article with sanitised HTML and its related items in order', async () => {
      const response = await get('/api/demo/article?id=harbour-quay&type=case_study');
      expect(response.statusCode).toBe(200);
      const body = response.json<{ description: string; related: Item[] }>();
      expect(body).toMatchObject({
        id: 'harbour-quay',
        type: 'case_study',
        title: 'Harbour Quay apartments',
      });
      expect(body.related.map((i) => [i.id, i.type])).toEqual([
        ['mill-lane', 'case_study'],
        ['warranty-choice', 'insight'],
      ]);
      const html = body.description;
      expect(html).toContain('<strong>basement</strong>');
      expect(html).toMatch(/<img src="\/media\/demo\/[a-f0-9]{20}\.svg" alt="Quay">/);
      for (const bad of [
        '<script',
        'onerror',
        'onclick',
        'javascript:',
        '<iframe',
        '<form',
        '<input',
        'style=',
        'data:image',
      ]) {
        expect(html).not.toContain(bad);
      }
    });

    it('should fall back to other items of the same type when none are named', async () => {
      const body = (await get('/api/demo/article?id=pi-levels&type=insight')).json<{
        related: Item[];
      }>();
      expect(body.related.map((i) => i.id)).toEqual(['warranty-choice']);
    });

    it('should fall back to the first three others in order, reading no more of them', async () => {
      const client = await findClientByPrefix(t.app.db.kysely, 'demo');
      if (client === undefined) throw new Error('demo client missing');
      const extra = ['fallback-a', 'fallback-b', 'fallback-c', 'fallback-d'];
      for (const [i, slug] of extra.entries()) {
        await upsertContentItem(
          t.app.db.kysely,
          client.id,
          {
            type: 'insight',
            slug,
            title: `Fallback ${slug}`,
            summary: 'Names no related items.',
            bodyText: 'Body',
            html: '<p>Body</p>',
            imageUrl: null,
            proTip: null,
            sortOrder: 50 + i,
            related: [],
          },
          new Date(),
        );
      }
      try {
        const related = async (id: string) =>
          (await get(`/api/demo/article?id=${id}&type=insight`))
            .json<{ related: Item[] }>()
            .related.map((i) => i.id);
        // The demo's two insights come first; the article itself is never among its related items.
        expect(await related('pi-levels')).toEqual(['warranty-choice', 'fallback-a', 'fallback-b']);
        expect(await related('fallback-b')).toEqual(['pi-levels', 'warranty-choice', 'fallback-a']);
        expect(await related('fallback-d')).toEqual(['pi-levels', 'warranty-choice', 'fallback-a']);
      } finally {
        await t.app.db.kysely.deleteFrom('content_items').where('slug', 'in', extra).execute();
      }
    });

    it('should read no more than MAX_RELATED related items, whatever an older import stored', async () => {
      // An import before the limit could store 40,000 slugs: one bound value each passed SQLite's limit (500).
      const client = await findClientByPrefix(t.app.db.kysely, 'demo');
      if (client === undefined) throw new Error('demo client missing');
      const slugs = Array.from({ length: 40_000 }, (_, i) => `missing-${i}`);
      await upsertContentItem(
        t.app.db.kysely,
        client.id,
        {
          type: 'insight',
          slug: 'many-related',
          title: 'Many related',
          summary: 'Names far too many related items.',
          bodyText: 'Body',
          html: '<p>Body</p>',
          imageUrl: null,
          proTip: null,
          sortOrder: 99,
          related: [...slugs, 'warranty-choice'],
        },
        new Date(),
      );
      const response = await get('/api/demo/article?id=many-related&type=insight');
      expect(response.statusCode).toBe(200);
      expect(response.json<{ related: Item[] }>().related).toEqual([]);
      await t.app.db.kysely
        .deleteFrom('content_items')
        .where('slug', '=', 'many-related')
        .execute();
      expect(MAX_RELATED).toBeLessThan(100);
    });

    it('should answer 404 for an unknown id or the wrong type', async () => {
      expect((await get('/api/demo/article?id=nope&type=insight')).statusCode).toBe(404);
      const wrongType = await get('/api/demo/article?id=harbour-quay&type=insight');
      expect(wrongType.statusCode).toBe(404);
      expect(wrongType.json()).toEqual({ error: 'Article not found.' });
    });

    it('should answer 400 naming a bad or missing parameter', async () => {
      const badType = await get('/api/demo/article?id=harbour-quay&type=topic');
      expect(badType.statusCode).toBe(400);
      expect(badType.json<{ error: string }>().error).toContain('"type"');
      const missing = await get('/api/demo/article?type=insight');
      expect(missing.json()).toEqual({ error: 'Missing required query parameter "id".' });
    });
  });

  describe('GET /api/{client}/video', () => {
    it('should answer the video with media URLs', async () => {
      const response = await get('/api/demo/video');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        title: 'Welcome to your hub',
        src: expect.stringMatching(/^\/media\/demo\/[a-f0-9]{20}\.webm$/),
        poster: expect.stringMatching(/^\/media\/demo\/[a-f0-9]{20}\.svg$/),
        captions: expect.stringMatching(/^\/media\/demo\/[a-f0-9]{20}\.vtt$/),
        description: '<p>A short tour of the hub.</p>\n',
      });
    });

    it('should answer 404 when the client has no video', async () => {
      const other = await buildTestApp(target, { CONTENT_DIR: '/nonexistent' });
      try {
        // No seed: add a client without content through the staff code path.
        const { createClient } = await import('../../../src/repositories/clients.js');
        await createClient(
          other.app.db.kysely,
          { prefix: 'empty', name: 'Empty', loginPolicy: 'open' },
          new Date(),
        );
        const c = await loginOpen(other.app, 'empty');
        const response = await other.app.inject({
          method: 'GET',
          url: '/api/empty/video',
          headers: { cookie: c },
        });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toEqual({ error: 'This client has no video.' });
      } finally {
        await other.close();
      }
    });
  });

  describe('GET /media/{client}/{file}', () => {
    it('should serve imported media to a session of the client, cacheable for ever by its browser only, and sandboxed', async () => {
      const video = (await get('/api/demo/video')).json<{ captions: string }>();
      const response = await get(video.captions);
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('WEBVTT');
      expect(response.headers['cache-control']).toBe('private, max-age=31536000, immutable');
      expect(response.headers['content-security-policy']).toContain('sandbox');
    });

    it('should serve the client’s logo to anyone (the login page shows it), and nothing else without a session', async () => {
      const logo = (await t.app.inject({ method: 'GET', url: '/api/demo' })).json<{
        branding: { logo_url: string };
      }>().branding.logo_url;
      expect(logo).toMatch(/^\/media\/demo\/[0-9a-f]{20}\.svg$/);
      const anyone = await t.app.inject({ method: 'GET', url: logo });
      expect(anyone.statusCode).toBe(200);
      expect(anyone.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(anyone.headers['content-security-policy']).toContain('sandbox');

      // (The fixture's video poster and case study image are the logo's very bytes, so the logo's file.)
      const video = (await get('/api/demo/video')).json<{ captions: string; src: string }>();
      for (const url of [video.captions, video.src, '/media/demo/0000000000000000000a.svg']) {
        expect(url).toMatch(/^\/media\/demo\//);
        const response = await t.app.inject({ method: 'GET', url });
        // Whether or not the file exists: a 401 tells nothing of what is there.
        expect(response.statusCode).toBe(401);
        expect(response.json()).toEqual({ error: 'You are not logged in. Please log in again.' });
        expect(response.body).not.toContain('WEBVTT');
        const head = await t.app.inject({ method: 'HEAD', url });
        expect(head.statusCode).toBe(401);
      }
    });

    it('should answer 404 for names that are not imported media', async () => {
      for (const url of [
        '/media/demo/..%2F..%2Fportal.sqlite',
        '/media/demo/logo.svg',
        '/media/demo/0000000000000000000a.svg',
      ]) {
        expect((await get(url)).statusCode).toBe(404);
      }
      expect((await get('/media/nosuchclient/0000000000000000000a.svg')).statusCode).toBe(404);
    });
  });
});
