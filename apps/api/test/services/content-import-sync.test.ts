import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { findClientByPrefix, type Client } from '../../src/repositories/clients.js';
import {
  ContentError,
  importContent,
  MEDIA_GRACE_MS,
  prepareImport,
  publishImportMedia,
  writeImport,
  type ImportOptions,
} from '../../src/services/content-import.js';
import { buildTestApp, databases, FIXTURE_CONTENT, loginOpen, type TestApp } from '../helper.js';

interface Card {
  id: string;
  title: string;
  image_url: string | null;
}
interface Hub {
  insights: Card[];
  case_studies: Card[];
  insurance: { id: string }[];
}

describe.each(databases)('content import makes the client match its folder ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  let scratch: string;
  let mediaDir: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    cookie = await loginOpen(t.app);
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-import-sync-'));
    mediaDir = path.join(t.dataDir, 'media');
  });
  afterAll(async () => {
    await t.close();
    await rm(scratch, { recursive: true, force: true });
  });

  const get = (url: string) => t.app.inject({ method: 'GET', url, headers: { cookie } });
  const demo = async (): Promise<Client> => {
    const client = await findClientByPrefix(t.app.db.kysely, 'demo');
    if (client === undefined) throw new Error('demo client missing');
    return client;
  };
  /** A copy of the demo fixture, with `remove` (paths inside it) deleted. */
  const folderWithout = async (...remove: string[]) => {
    const folder = await mkdtemp(path.join(scratch, 'content-'));
    await cp(path.join(FIXTURE_CONTENT, 'demo'), folder, { recursive: true });
    // The fixture's quay.svg is the logo, byte for byte (one published file): made its own here.
    await writeFile(
      path.join(folder, 'media', 'quay.svg'),
      '<svg xmlns="http://www.w3.org/2000/svg"><title>Quay</title></svg>\n',
    );
    for (const file of remove) await rm(path.join(folder, file), { recursive: true });
    return folder;
  };
  const importFolder = async (folder: string, options?: ImportOptions) =>
    importContent(t.app.db.kysely, await demo(), folder, mediaDir, new Date(), options);
  const slugs = async () =>
    (
      await t.app.db.kysely
        .selectFrom('content_items')
        .select(['type', 'slug'])
        .where('client_id', '=', (await demo()).id)
        .execute()
    )
      .map((row) => `${row.type}/${row.slug}`)
      .sort();
  const ALL = [
    'case_study/harbour-quay',
    'case_study/mill-lane',
    'insight/pi-levels',
    'insight/warranty-choice',
    'topic/contractors-all-risks',
    'topic/structural-warranties',
  ];

  it('should remove an item whose file is gone from the dashboard, search, articles and related lists', async () => {
    await importFolder(await folderWithout());
    const hubBefore = (await get('/api/demo/content')).json<Hub>();
    expect(hubBefore.insights.map((i) => i.id)).toContain('warranty-choice');
    const versionBefore = (await demo()).contentVersion;

    const summary = await importFolder(
      await folderWithout('insights/warranty-choice.md', 'topics/contractors-all-risks.md'),
    );
    // Before: nothing was removed; the deleted files' items stayed published for good.
    expect(summary.removed).toEqual({ case_study: 0, insight: 1, topic: 1, video: false });
    expect(await slugs()).toEqual(ALL.filter((s) => !/warranty-choice|contractors/.test(s)));
    // The served hub's cache key moved: no instance keeps answering the removed items.
    expect((await demo()).contentVersion).toBeGreaterThan(versionBefore);
    const hub = (await get('/api/demo/content')).json<Hub>();
    expect(hub.insights.map((i) => i.id)).toEqual(['pi-levels']);
    expect(hub.insurance.map((i) => i.id)).toEqual(['structural-warranties']);
    const search = (await get('/api/demo/content?search=structural%20warranty')).json<Hub>();
    expect(search.insights).toEqual([]);
    const article = await get('/api/demo/article?type=insight&id=warranty-choice');
    expect(article.statusCode).toBe(404);
    // harbour-quay names it as related: the list now leaves it out (and keeps the one still there).
    const related = (await get('/api/demo/article?type=case_study&id=harbour-quay')).json<{
      related: Card[];
    }>();
    expect(related.related.map((r) => r.id)).toEqual(['mill-lane']);

    // Idempotent: the same folder again changes and removes nothing.
    const again = await importFolder(
      await folderWithout('insights/warranty-choice.md', 'topics/contractors-all-risks.md'),
    );
    expect(again.removed).toEqual({ case_study: 0, insight: 0, topic: 0, video: false });
    expect(await slugs()).toEqual(ALL.filter((s) => !/warranty-choice|contractors/.test(s)));

    // The file back: the item is back.
    await importFolder(await folderWithout());
    expect(await slugs()).toEqual(ALL);
  });

  it('should remove the video when video.md is gone', async () => {
    await importFolder(await folderWithout());
    expect((await get('/api/demo/video')).statusCode).toBe(200);
    const summary = await importFolder(await folderWithout('video.md'));
    expect(summary.removed.video).toBe(true);
    expect((await get('/api/demo/video')).statusCode).toBe(404);
    await importFolder(await folderWithout());
    expect((await get('/api/demo/video')).statusCode).toBe(200);
  });

  it('should remove nothing when the import fails', async () => {
    await importFolder(await folderWithout());
    const folder = await folderWithout('case-studies/mill-lane.md');
    await writeFile(
      path.join(folder, 'insights', 'broken.md'),
      '---\nsummary: No title.\n---\n\nBody.\n',
    );
    await expect(importFolder(folder)).rejects.toThrow(ContentError);
    expect(await slugs()).toEqual(ALL);
  });

  it('should refuse a folder with no items at all while the client has some, unless allowed', async () => {
    await importFolder(await folderWithout());
    const empty = await folderWithout('case-studies', 'insights', 'topics');
    const versionBefore = (await demo()).contentVersion;
    await expect(importFolder(empty)).rejects.toThrow(
      'The folder has no case studies, insights or topics, so importing it would remove all 6 published ' +
        'items of demo. Nothing was changed. Check the folder; to remove them all, import it again with ' +
        '--allow-empty.',
    );
    expect(await slugs()).toEqual(ALL);
    expect((await demo()).contentVersion).toBe(versionBefore);

    const summary = await importFolder(empty, { allowEmpty: true });
    expect(summary.removed).toEqual({ case_study: 2, insight: 2, topic: 2, video: false });
    expect(await slugs()).toEqual([]);
    expect((await get('/api/demo/content')).json<Hub>()).toEqual({
      insights: [],
      case_studies: [],
      insurance: [],
    });
    // Nothing left to remove: an empty folder now imports without the flag.
    await expect(importFolder(empty)).resolves.toMatchObject({ removed: { insight: 0 } });
    await importFolder(await folderWithout());
    expect(await slugs()).toEqual(ALL);
  });

  it('should end two imports of one client at the same moment with one folder’s items, never a mix', async () => {
    await importFolder(await folderWithout());
    const a = await folderWithout('insights/pi-levels.md', 'case-studies/mill-lane.md');
    const b = await folderWithout('insights/warranty-choice.md', 'topics/contractors-all-risks.md');
    // Each through a connection of its own, as two staff tools would.
    const [first, second] = [await openDatabase(t.config), await openDatabase(t.config)];
    try {
      const client = await demo();
      await Promise.all([
        importContent(first.kysely, client, a, mediaDir, new Date()),
        importContent(second.kysely, client, b, mediaDir, new Date()),
      ]);
    } finally {
      await first.close();
      await second.close();
    }
    const left = await slugs();
    expect([
      ALL.filter((s) => !/pi-levels|mill-lane/.test(s)),
      ALL.filter((s) => !/warranty-choice|contractors/.test(s)),
    ]).toContainEqual(left);
    await importFolder(await folderWithout());
  });

  describe('media nothing names any more', () => {
    const demoMedia = () => path.join(mediaDir, 'demo');
    /** Sets the modification time of files in the demo media folder (all, or those `pick` chooses). */
    const age = async (ms: number, pick: (name: string) => boolean = () => true) => {
      const when = new Date(Date.now() - ms);
      for (const name of await readdir(demoMedia())) {
        if (pick(name)) await utimes(path.join(demoMedia(), name), when, when);
      }
    };
    const quayFile = async () => {
      const row = await t.app.db.kysely
        .selectFrom('content_items')
        .select('image_url')
        .where('client_id', '=', (await demo()).id)
        .where('slug', '=', 'harbour-quay')
        .executeTakeFirstOrThrow();
      return path.basename(row.image_url ?? '');
    };

    it('should delete unused media an hour after an import first found them unused, and nothing else', async () => {
      await importFolder(await folderWithout());
      const quay = await quayFile();
      // Left by an import killed between copying its media and committing; and one being copied now.
      const killed = 'aaaaaaaaaaaaaaaaaaaa.svg';
      const young = 'cccccccccccccccccccc.png';
      await writeFile(path.join(demoMedia(), killed), '<svg/>');
      // Another client's folder, with a file its rows do not name: never this client's import's business.
      const northbank = path.join(mediaDir, 'northbank', 'bbbbbbbbbbbbbbbbbbbb.svg');
      await mkdir(path.dirname(northbank), { recursive: true });
      await writeFile(northbank, '<svg/>');
      const old = new Date(Date.now() - 3 * MEDIA_GRACE_MS);
      await utimes(northbank, old, old);
      await age(3 * MEDIA_GRACE_MS);
      await writeFile(path.join(demoMedia(), young), 'png');
      const served = (await readdir(demoMedia())).filter((n) => /^[a-f0-9]{20}\./.test(n));

      // harbour-quay's file removed: its image is unused from now on.
      const folder = await folderWithout('case-studies/harbour-quay.md');
      const first = await importFolder(folder);
      // Found unused just now: kept an hour for pages sent before the import that still name them.
      expect(first.media_removed).toEqual([]);
      for (const name of served) expect(existsSync(path.join(demoMedia(), name)), name).toBe(true);

      await age(2 * MEDIA_GRACE_MS, (name) => name.startsWith('.unused-'));
      const second = await importFolder(folder);
      // Before: media of removed items and of killed imports stayed on disk for ever.
      expect(second.media_removed.sort()).toEqual([killed, quay].sort());
      expect(existsSync(path.join(demoMedia(), quay))).toBe(false);
      expect(existsSync(path.join(demoMedia(), killed))).toBe(false);
      expect(existsSync(path.join(demoMedia(), young))).toBe(true);
      expect(existsSync(northbank)).toBe(true);
      // Everything still named (logo, video, captions) is there and served.
      const client = await demo();
      const logo = client.branding.logo_url ?? '';
      expect((await t.app.inject({ method: 'GET', url: logo })).statusCode).toBe(200);
      const video = (await get('/api/demo/video')).json<{ src: string; captions: string }>();
      for (const url of [video.src, video.captions]) {
        expect((await get(url)).statusCode, url).toBe(200);
      }
      expect((await readdir(demoMedia())).filter((n) => n.startsWith('.unused-'))).toEqual([]);

      // Idempotent: nothing more to remove.
      expect((await importFolder(folder)).media_removed).toEqual([]);
      // The item back: its image is copied again.
      await importFolder(await folderWithout());
      expect((await get(`/media/demo/${await quayFile()}`)).statusCode).toBe(200);
    });

    it('should never delete a file that an import of the same client running now is about to name', async () => {
      await importFolder(await folderWithout());
      const quay = await quayFile();
      const without = await folderWithout('case-studies/harbour-quay.md');
      await importFolder(without);
      // Unused for over an hour, as the sweeps see it: old, and marked unused by a sweep over an hour ago.
      await age(3 * MEDIA_GRACE_MS);
      await importFolder(without);
      await age(2 * MEDIA_GRACE_MS, (name) => name.startsWith('.unused-'));
      expect(existsSync(path.join(demoMedia(), `.unused-${quay}`))).toBe(true);

      // A second import, with harbour-quay, has published its media and not committed yet...
      const client = await demo();
      const racing = await prepareImport(client, await folderWithout(), mediaDir);
      await publishImportMedia(racing);
      // ...when the first one, run again, sweeps.
      const swept = await importFolder(without);
      expect(swept.media_removed).not.toContain(quay);
      await t.app.db.kysely
        .transaction()
        .execute((trx) => writeImport(trx, client, racing, new Date()));
      expect((await get(`/media/demo/${quay}`)).statusCode).toBe(200);
    });
  });
});
