import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClientByPrefix } from '../../src/repositories/clients.js';
import { ContentError, importContent } from '../../src/services/content-import.js';
import { buildTestApp, databases, FIXTURE_CONTENT, type TestApp } from '../helper.js';

describe('content import, hostile files', () => {
  let t: TestApp;
  let scratch: string;
  beforeAll(async () => {
    t = await buildTestApp(databases[0]!);
    scratch = await mkdtemp(path.join(tmpdir(), 'firm-import-'));
  });
  afterAll(async () => {
    await t.close();
    await rm(scratch, { recursive: true, force: true });
  });

  /** The demo fixture with one file added or replaced, imported into `demo`. */
  const importWith = async (file: string, text: string) => {
    const folder = await mkdtemp(path.join(scratch, 'content-'));
    await cp(path.join(FIXTURE_CONTENT, 'demo'), folder, { recursive: true });
    await writeFile(path.join(folder, file), text);
    const client = await findClientByPrefix(t.app.db.kysely, 'demo');
    if (client === undefined) throw new Error('demo client missing');
    return importContent(
      t.app.db.kysely,
      client,
      folder,
      path.join(t.dataDir, 'media'),
      new Date(),
    );
  };

  it('should never run JavaScript front matter, and refuse the file', async () => {
    const marker = path.join(scratch, 'front-matter-ran');
    for (const fence of ['---js', '---javascript']) {
      const attempt = importWith(
        'case-studies/evil.md',
        `${fence}\n{ title: (require('fs').writeFileSync(${JSON.stringify(marker)}, 'x'), 'Evil') }\n---\n\nBody.\n`,
      );
      await expect(attempt).rejects.toThrow(ContentError);
      await expect(attempt).rejects.toThrow(
        'case-studies/evil.md: front matter must be YAML (or JSON); JavaScript front matter is never run.',
      );
      expect(existsSync(marker)).toBe(false);
    }
    // YAML (the default) and JSON front matter still import.
    await expect(
      importWith(
        'case-studies/json.md',
        '---json\n{ "title": "JSON", "summary": "S" }\n---\n\nBody.\n',
      ),
    ).resolves.toBeDefined();
  });

  it('should refuse a /media/ path that is not one of the client’s published files', async () => {
    for (const image of [
      '/media/../api/demo/logout',
      '/media/demo/../../api/demo/logout',
      '/media/northbank/0123456789abcdef0123.svg',
      '/media/demo/anything.svg',
    ]) {
      await expect(
        importWith(
          'case-studies/image.md',
          `---\ntitle: Image\nsummary: S\nimage: "${image}"\n---\n\nBody.\n`,
        ),
        image,
      ).rejects.toThrow(`must be a file in the content folder`);
    }
  });
});
