import { existsSync } from 'node:fs';
import { cp, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findClientByPrefix } from '../../src/repositories/clients.js';
import {
  ContentError,
  importContent,
  MAX_MARKDOWN_BYTES,
  mayNestDeeperThan,
} from '../../src/services/content-import.js';
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

  it('should refuse related items that are not slugs, or too many of them', async () => {
    const withRelated = (related: string[]) =>
      importWith(
        'case-studies/related.md',
        `---\ntitle: Related\nsummary: S\nrelated: ${JSON.stringify(related)}\n---\n\nBody.\n`,
      );
    for (const related of [
      [`<img src=x onerror="alert(1)">`],
      ['../northbank/secret'],
      ['Harbour-Quay'],
      [''],
    ]) {
      await expect(withRelated(related), related[0]).rejects.toThrow(
        'case-studies/related.md: front matter "related" must be a list of slugs.',
      );
    }
    // Thousands of slugs went into one `slug IN (…)` query: past SQLite's limit on bound values the article
    // answered 500.
    const many = Array.from({ length: 40_000 }, (_, i) => `item-${i}`);
    await expect(withRelated(many)).rejects.toThrow(
      'case-studies/related.md: front matter "related" may list at most 50 slugs.',
    );
    await expect(withRelated(many.slice(0, 50))).resolves.toBeDefined();
  });

  it("should drop /media/ paths in HTML that are not the client's own published files", async () => {
    const other = '/media/northbank/0123456789abcdef0123.png';
    await importWith(
      'case-studies/borrowed.md',
      `---\ntitle: B\nsummary: S\n---\n\n<img src="${other}" alt="theirs"> ` +
        '<a href="/media/../api/demo/logout">out</a> <img src="media/logo.svg" alt="ours">\n',
    );
    const row = await t.app.db.kysely
      .selectFrom('content_items')
      .select('html')
      .where('slug', '=', 'borrowed')
      .executeTakeFirstOrThrow();
    expect(row.html).not.toContain('northbank');
    expect(row.html).not.toContain('logout');
    expect(row.html).toContain('alt="theirs"');
    // The client's own media, published by this import, stay.
    expect(row.html).toMatch(/<img src="\/media\/demo\/[a-f0-9]{20}\.svg" alt="ours">/);
  });

  it('should refuse a body or a pro tip longer than MAX_MARKDOWN_BYTES, naming the file', async () => {
    const long = 'x'.repeat(MAX_MARKDOWN_BYTES + 1);
    await expect(
      importWith('case-studies/long.md', `---\ntitle: L\nsummary: S\n---\n\n${long}`),
    ).rejects.toThrow('case-studies/long.md: the text is 257 KB; at most 256 KB is taken.');
    await expect(
      importWith('topics/long.md', `---\ntitle: L\npro_tip: ${long}\n---\n\nBody.\n`),
    ).rejects.toThrow('topics/long.md pro_tip: the text is 257 KB; at most 256 KB is taken.');
    await expect(
      importWith(
        'case-studies/fits.md',
        `---\ntitle: F\nsummary: S\n---\n\n${'x'.repeat(MAX_MARKDOWN_BYTES - 1)}`,
      ),
    ).resolves.toBeDefined();
  });

  it('should refuse Markdown or HTML nested too deeply, in a body or a pro tip', async () => {
    // 5,000 `>` overflowed marked's stack: the staff tool said only "Failed: Maximum call stack size exceeded".
    await expect(
      importWith(
        'case-studies/quotes.md',
        `---\ntitle: Q\nsummary: S\n---\n\n${'>'.repeat(5000)} x\n`,
      ),
    ).rejects.toThrow(
      'case-studies/quotes.md: the Markdown could not be read (is it nested too deeply?).',
    );
    // Deep HTML was kept, and parsing it again on the way out takes time that grows with the square of the depth
    // (10,000 levels: 12 s of a blocked server per answer).
    const deep = `${'<div>'.repeat(150)}x`;
    await expect(
      importWith('case-studies/deep.md', `---\ntitle: D\nsummary: S\n---\n\n${deep}\n`),
    ).rejects.toThrow('case-studies/deep.md: the HTML is nested more than 100 elements deep.');
    await expect(
      importWith(
        'topics/deep.md',
        `---\ntitle: D\npro_tip: ${JSON.stringify(deep)}\n---\n\nBody.\n`,
      ),
    ).rejects.toThrow('topics/deep.md pro_tip: the HTML is nested more than 100 elements deep.');
    await expect(
      importWith(
        'case-studies/nested.md',
        `---\ntitle: N\nsummary: S\n---\n\n${'<div>'.repeat(90)}x\n`,
      ),
    ).resolves.toBeDefined();
  });
});

describe('mayNestDeeperThan', () => {
  it('should count nesting by start and end tags, never above the real depth of what it counts', () => {
    expect(mayNestDeeperThan('<div>'.repeat(11), 10)).toBe(true);
    expect(mayNestDeeperThan('<div>'.repeat(10), 10)).toBe(false);
    expect(mayNestDeeperThan('<div></div>'.repeat(1000), 10)).toBe(false);
    expect(mayNestDeeperThan('<DIV class="a>b">'.repeat(11), 10)).toBe(true);
    // Void and self-closed elements, and those the parser closes by itself, do not nest.
    expect(mayNestDeeperThan('<br><img src="x"><hr/><svg/>'.repeat(50), 10)).toBe(false);
    expect(mayNestDeeperThan('<p>a<li>b<td>c<option>d'.repeat(50), 10)).toBe(false);
    // A stray end tag lowers the count, as it can only lower the real depth.
    expect(mayNestDeeperThan(`</span>${'<span>'.repeat(10)}`, 10)).toBe(false);
  });

  it('should refuse content thousands of levels deep at import with the depth message', async () => {
    const folder = await mkdtemp(path.join(tmpdir(), 'firm-deep-'));
    try {
      await cp(path.join(FIXTURE_CONTENT, 'demo'), folder, { recursive: true });
      await writeFile(
        path.join(folder, 'case-studies', 'abyss.md'),
        `---\ntitle: A\nsummary: S\n---\n\n${'<div>'.repeat(10_000)}x\n`,
      );
      const t = await buildTestApp(databases[0]!);
      try {
        const client = await findClientByPrefix(t.app.db.kysely, 'demo');
        if (client === undefined) throw new Error('demo client missing');
        await expect(
          importContent(t.app.db.kysely, client, folder, path.join(t.dataDir, 'media'), new Date()),
        ).rejects.toThrow('case-studies/abyss.md: the HTML is nested more than 100 elements deep.');
      } finally {
        await t.close();
      }
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
