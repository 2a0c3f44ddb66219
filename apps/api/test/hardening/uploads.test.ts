import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayFileName } from '../../src/services/uploads.js';
import { buildTestApp, databases, loginOpen, type TestApp } from '../helper.js';
import {
  DUE_DILIGENCE_FIELDS,
  FUZZ_PARAMS,
  multipart,
  pdf,
  walk,
  type FilePart,
} from './support.js';

const MB20 = 20 * 1024 * 1024;
const TOO_LARGE = { error: 'File size should be less than 20MB.' };
const NOT_ALLOWED = {
  error: 'This file type is not allowed. Upload a PDF, Word, Excel, image or text file.',
};

/** The database's own files change on every write; everything else in DATA_DIR must not. */
const isDatabaseFile = (file: string) => /^portal\.sqlite(-wal|-shm|-journal)?$/.test(file);

describe.each(databases)('uploads, hostile ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  /** Every file in DATA_DIR (but the database) with its size. */
  const snapshot = async () => {
    const files = (await walk(t.dataDir)).filter((f) => !isDatabaseFile(f));
    return Promise.all(
      files.map(async (f) => `${f}:${(await stat(path.join(t.dataDir, f))).size}`),
    );
  };
  const post = (form: { payload: Buffer; headers: Record<string, string> }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie },
    });
  const count = async () =>
    (await t.app.db.kysely.selectFrom('due_diligence').select('id').execute()).length;

  it('should answer 413 with the message to 20 MB + 1 byte, wherever the file is in the form, and leave no byte anywhere', async () => {
    await t.app.background.drain();
    const before = await snapshot();
    const rows = await count();
    const big = pdf(MB20 + 1);
    // The file last, as browsers send it…
    const last = await post(multipart(DUE_DILIGENCE_FIELDS, { filename: 'big.pdf', content: big }));
    // …and first, with the fields after it (they must still be read, and then refused).
    const first = multipart([], { filename: 'big.pdf', content: big });
    const rest = multipart(DUE_DILIGENCE_FIELDS).payload;
    const boundaryEnd = first.payload.lastIndexOf('--\r\n');
    const firstThenFields = {
      payload: Buffer.concat([
        first.payload.subarray(0, boundaryEnd - '------hardening7MA4YWxkTrZu0gW'.length),
        rest,
      ]),
      headers: first.headers,
    };
    const early = await post(firstThenFields);
    for (const response of [last, early]) {
      expect(response.statusCode).toBe(413);
      expect(response.json()).toEqual(TOO_LARGE);
    }
    await t.app.background.drain();
    expect(await snapshot()).toEqual(before);
    expect(await count()).toBe(rows);
  });

  it('should answer 415 to content that is not an allowed type, whatever its name and declared type claim', async () => {
    const disguises = fc.record({
      head: fc.constantFrom(
        Buffer.from('MZ\x90\x00\x03\x00\x00\x00'),
        Buffer.from('\x7fELF\x02\x01\x01'),
        Buffer.from('#!/bin/sh\nrm -rf /\n\x00'),
        Buffer.from([0x1f, 0x8b, 0x08, 0x00]),
        Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]),
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)">\x00'),
        Buffer.from('<!doctype html><script>alert(1)</script>\x00'),
        Buffer.from([0xca, 0xfe, 0xba, 0xbe]),
        Buffer.from([0xc3, 0x28, 0xa0, 0xa1]),
      ),
      tail: fc.uint8Array({ maxLength: 512 }),
      name: fc.constantFrom(
        'report.pdf',
        'photo.png',
        'plan.docx',
        'costs.xlsx',
        'notes.txt',
        'scan.jpg',
      ),
      declared: fc.constantFrom(
        'application/pdf',
        'image/png',
        'text/plain',
        'application/octet-stream',
      ),
    });
    const before = await snapshot();
    const rows = await count();
    await fc.assert(
      fc.asyncProperty(disguises, async ({ head, tail, name, declared }) => {
        const file: FilePart = {
          filename: name,
          contentType: declared,
          content: Buffer.concat([head, Buffer.from(tail), Buffer.from([0])]),
        };
        const response = await post(multipart(DUE_DILIGENCE_FIELDS, file));
        expect(response.statusCode).toBe(415);
        expect(response.json()).toEqual(NOT_ALLOWED);
      }),
      { ...FUZZ_PARAMS, numRuns: Math.min(FUZZ_PARAMS.numRuns, 60) },
    );
    await t.app.background.drain();
    expect(await snapshot()).toEqual(before);
    expect(await count()).toBe(rows);
  });

  it('should store a path-like file name under a generated name inside uploads only', async () => {
    const hostileNames = fc.oneof(
      fc.constantFrom(
        '../../etc/passwd',
        '..\\..\\x.pdf',
        '..\\x.pdf',
        '/etc/passwd',
        '/tmp/evil.pdf',
        'C:\\Windows\\evil.pdf',
        '\\\\server\\share\\x.pdf',
        'a\u0000b.pdf',
        '.\u0000./.\u0000./x.pdf',
        '....//....//x.pdf',
        '%2e%2e%2f%2e%2e%2fx.pdf',
        '.htaccess',
        '..',
        '.',
        'CON.pdf',
        '\u202Efdp.exe',
        'x'.repeat(1000),
      ),
      fc
        .array(fc.constantFrom('..', '.', 'etc', '', '\u0000', 'x.pdf', '%00', '~'), {
          minLength: 1,
          maxLength: 6,
        })
        .chain((parts) => fc.constantFrom('/', '\\').map((sep) => parts.join(sep))),
    );
    let n = 0;
    await fc.assert(
      fc.asyncProperty(hostileNames, async (filename) => {
        n += 1;
        const project = `Path probe ${n}`;
        const content = pdf(300 + n);
        const before = new Set(await walk(t.dataDir));
        const response = await post(
          multipart({ ...DUE_DILIGENCE_FIELDS, SingleLine: project }, { filename, content }),
        );
        expect(response.statusCode).toBe(303);
        const row = await t.app.db.kysely
          .selectFrom('due_diligence')
          .select(['attachment_path', 'attachment_name', 'attachment_sha256'])
          .where('project_name', '=', project)
          .executeTakeFirstOrThrow();
        expect(row.attachment_path).toMatch(/^[0-9a-f-]{36}\.pdf$/);
        const name = row.attachment_name ?? '';
        expect(
          [...name].some((c) => c === '/' || c === '\\' || c.charCodeAt(0) < 0x20),
          name,
        ).toBe(false);
        expect(name).toMatch(/^[^.].*\.pdf$/);
        const added = (await walk(t.dataDir)).filter(
          (f) => !before.has(f) && !isDatabaseFile(f) && !f.startsWith(`outbox${path.sep}`),
        );
        expect(added).toEqual([path.join('uploads', row.attachment_path ?? '')]);
        const stored = await readFile(path.join(t.dataDir, 'uploads', row.attachment_path ?? ''));
        expect(stored.equals(content)).toBe(true);
      }),
      { ...FUZZ_PARAMS, numRuns: Math.min(FUZZ_PARAMS.numRuns, 40) },
    );
    await t.app.background.drain();
  });
});

describe('displayFileName', () => {
  it('should keep the uploaded base name with the extension of the content', () => {
    const cases: [string, string, string][] = [
      ['invoice.html', 'txt', 'invoice.txt'],
      ['report.html', 'pdf', 'report.pdf'],
      ['image.svg', 'txt', 'image.txt'],
      ['costs.CSV', 'csv', 'costs.csv'],
      ['photo.JPEG', 'jpg', 'photo.jpg'],
      ['plan v1.2', 'pdf', 'plan v1.2.pdf'],
      ['notes', 'txt', 'notes.txt'],
      ['invoice.html. . ', 'txt', 'invoice.txt'],
      ['invoice\u202Etxt.lmth', 'txt', 'invoicetxt.txt'],
      ['.htaccess', 'txt', 'htaccess.txt'],
      ['..', 'pdf', 'attachment.pdf'],
      ['../../etc/passwd', 'pdf', 'passwd.pdf'],
      ['C:\\Users\\a\\"quoted".docx', 'docx', 'quoted.docx'],
      [`${'a'.repeat(300)}.html`, 'pdf', `${'a'.repeat(196)}.pdf`],
    ];
    for (const [name, ext, shown] of cases) expect(displayFileName(name, ext), name).toBe(shown);
  });

  it('should always end in the given extension, within 200 characters, with nothing to hide or spoof it', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 400, unit: 'binary' }),
          fc
            .tuple(
              fc.string({ maxLength: 300, unit: 'grapheme' }),
              fc.constantFrom('.html', '.htm', '.svg', '.xhtml', '.js', '.exe', '.html.', '.'),
            )
            .map(([base, ext]) => base + ext),
        ),
        fc.constantFrom('pdf', 'txt', 'csv', 'docx', 'xls', 'png'),
        (name, ext) => {
          const shown = displayFileName(name, ext);
          expect(shown.endsWith(`.${ext}`)).toBe(true);
          expect(shown.length).toBeGreaterThan(ext.length + 1);
          expect([...shown].length).toBeLessThanOrEqual(200);
          expect(shown).not.toMatch(/^[.\s]/);
          expect([...shown].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)).toBe(
            false,
          );
          expect(shown).not.toMatch(/["/\\\u202a-\u202e\u2066-\u2069]/);
          // Cut between characters, never inside a surrogate pair.
          expect(Buffer.from(shown, 'utf8').toString('utf8')).toBe(shown);
        },
      ),
      FUZZ_PARAMS,
    );
  });
});
