import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type * as FsPromises from 'node:fs/promises';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import type * as ContentImport from '../../src/services/content-import.js';
import type * as Fsync from '../../src/services/fsync.js';

/** The first bytes of every WebM file (an import checks a file's bytes against its extension). */
const WEBM_SIGNATURE = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);
import { createClient, findClientByPrefix } from '../../src/repositories/clients.js';

/** What the import did to files and the database, in order. */
const events: string[] = [];

/**
 * rename and fsync, noting what they did. Mocked for this file's own fresh copy of the import's modules (test
 * files share modules, so a hoisted `vi.mock` could find them already loaded), and unmocked after.
 */
function mockFileCalls(): void {
  vi.doMock('node:fs/promises', async (importOriginal) => {
    const actual = await importOriginal<typeof FsPromises>();
    const rename: typeof actual.rename = async (from, to) => {
      await actual.rename(from, to);
      events.push(`rename ${path.basename(String(to))}`);
    };
    return { ...actual, default: { ...actual, rename }, rename };
  });
  vi.doMock('../../src/services/fsync.js', async (importOriginal) => {
    const actual = await importOriginal<typeof Fsync>();
    return {
      fsyncPath: async (file: string) => {
        await actual.fsyncPath(file);
        events.push(`fsync ${path.basename(file).replace(/\.tmp-.*$/, '.tmp')}`);
      },
    };
  });
}

/** The database, noting when the import's transaction begins. */
const noting = (db: Kysely<Database>): Kysely<Database> =>
  new Proxy(db, {
    get(target, key) {
      if (key === 'transaction') {
        return () => {
          events.push('transaction');
          return target.transaction();
        };
      }
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function'
        ? (value as (...a: unknown[]) => unknown).bind(target)
        : value;
    },
  });

describe('imported media are durable before the rows that name them', () => {
  let scratch: string;
  let db: Db;
  beforeAll(async () => {
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-media-fsync-'));
    db = await openDatabase({
      databaseUrl: null,
      databaseSchema: null,
      dataDir: path.join(scratch, 'data'),
    });
    await createClient(
      db.kysely,
      { prefix: 'demo', name: 'Demo', loginPolicy: 'open', branding: {} },
      new Date(),
    );
  });
  let importContent: typeof ContentImport.importContent;
  beforeAll(async () => {
    mockFileCalls();
    vi.resetModules();
    ({ importContent } = await import('../../src/services/content-import.js'));
  });
  afterAll(async () => {
    vi.doUnmock('node:fs/promises');
    vi.doUnmock('../../src/services/fsync.js');
    vi.resetModules();
    await db.close();
    await rm(scratch, { recursive: true, force: true });
  });

  it('should fsync each copy before its rename, and the media folders after, before the transaction', async () => {
    const folder = path.join(scratch, 'content');
    await mkdir(path.join(folder, 'media'), { recursive: true });
    await writeFile(path.join(folder, 'client.yml'), 'prefix: demo\nname: Demo\nlogin: open\n');
    await writeFile(
      path.join(folder, 'video.md'),
      '---\ntitle: Welcome\nsrc: media/intro.webm\n---\nA video.\n',
    );
    await writeFile(
      path.join(folder, 'media', 'intro.webm'),
      Buffer.concat([WEBM_SIGNATURE, Buffer.from('a video, say')]),
    );
    const client = await findClientByPrefix(db.kysely, 'demo');
    if (client === undefined) throw new Error('no client');
    const mediaDir = path.join(scratch, 'data', 'media');

    events.length = 0;
    const summary = await importContent(noting(db.kysely), client, folder, mediaDir, new Date());
    expect(summary.video).toBe(true);
    const [published] = await readdir(path.join(mediaDir, 'demo'));
    expect(published).toMatch(/^[a-f0-9]{20}\.webm$/);
    expect(events).toEqual([
      `fsync ${published ?? ''}.tmp`,
      `rename ${published ?? ''}`,
      'fsync demo',
      'fsync media',
      'transaction',
    ]);
  });
});
