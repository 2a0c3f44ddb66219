import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { displayFileName } from '../../src/services/uploads.js';
import {
  buildTestApp,
  databases,
  decodeMail,
  loginMagic,
  loginOpen,
  outboxMails,
  type TestApp,
} from '../helper.js';
import { DUE_DILIGENCE_FIELDS, multipart, walk } from './support.js';

// Faults a black-box run against the built server found in the due-diligence upload and the login flows.

const NOT_ALLOWED = {
  error: 'This file type is not allowed. Upload a PDF, Word, Excel, image or text file.',
};

describe.each(databases)('black-box run: uploads ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const upload = (project: string, filename: string, content: Buffer) => {
    const form = multipart(
      { ...DUE_DILIGENCE_FIELDS, SingleLine: project },
      { filename, content, contentType: 'text/plain' },
    );
    return t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie },
    });
  };
  const row = (project: string) =>
    t.app.db.kysely
      .selectFrom('due_diligence')
      .select(['attachment_name', 'attachment_mime'])
      .where('project_name', '=', project)
      .executeTakeFirst();

  it('should refuse markup as a text file however much white space comes before its first tag', async () => {
    // Only the first 64 bytes were looked at: 64 spaces, or 40 no-break spaces, before `<html>` passed the
    // "text that opens with a tag is a page, not plain text" rule, and the page was stored and e-mailed.
    const pages: [string, string, string][] = [
      ['64 spaces', 'notes.txt', `${' '.repeat(64)}<html><script>alert(1)</script></html>`],
      ['200 line breaks', 'README', `${'\n'.repeat(200)}<svg onload="alert(1)"></svg>`],
      [
        'BOM and 70 tabs',
        'data.csv',
        `\uFEFF${'\t'.repeat(70)}<!doctype html><script>x()</script>`,
      ],
      ['40 no-break spaces', 'notes.txt', `${'\u00A0'.repeat(40)}<html></html>`],
      ['100 KB of spaces', 'big.txt', `${' '.repeat(100 * 1024)}<html></html>`],
    ];
    for (const [project, filename, text] of pages) {
      const response = await upload(project, filename, Buffer.from(text, 'utf8'));
      expect(response.statusCode, project).toBe(415);
      expect(response.json(), project).toEqual(NOT_ALLOWED);
      expect(await row(project), project).toBeUndefined();
    }
    expect(await walk(path.join(t.dataDir, 'uploads'))).toEqual([]);
  });

  it('should indent the description in the team e-mail, so that its lines cannot pass for lines of the mail', async () => {
    // The description may hold line breaks; its lines went into the team's e-mail as they were, so a
    // description holding `Build cost: 5000000` and `No file was attached.` showed a forged block of fields
    // above the real ones.
    const forged =
      'Two blocks of flats.\r\n\r\nBuild cost: 5000000\nGDV: 9000000\rLoan amount: 100\u2028' +
      'E-mail: ceo@advisory.example\u2029Full name: Chief Executive\u0085\r\nNo file was attached.';
    const form = multipart({
      ...DUE_DILIGENCE_FIELDS,
      SingleLine: 'Forged fields',
      SingleLine3: forged,
      Currency1: '1200000',
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie },
    });
    expect(response.statusCode).toBe(303);
    await t.app.background.drain();
    const mail = (await outboxMails(t.dataDir))
      .map(decodeMail)
      .find((text) => text.includes('Project name: Forged fields'));
    expect(mail).toBeDefined();
    const lines = (mail ?? '').split(/\r?\n/);
    // Each of the mail's own lines is there once, with the real values; the description's lines are indented.
    for (const own of ['Build cost:', 'GDV:', 'Loan amount:', 'E-mail:', 'Full name:']) {
      expect(
        lines.filter((line) => line.startsWith(own)),
        own,
      ).toHaveLength(1);
    }
    expect(lines).toContain('Build cost: 1200000');
    expect(lines.filter((line) => line.startsWith('No file was attached.'))).toHaveLength(1);
    expect(lines).toContain('Project description: Two blocks of flats.');
    expect(lines).toContain('    Build cost: 5000000');
    expect(lines).toContain('    No file was attached.');
    // The request itself keeps the description as it was sent.
    const stored = await t.app.db.kysely
      .selectFrom('due_diligence')
      .select('project_description')
      .where('project_name', '=', 'Forged fields')
      .executeTakeFirstOrThrow();
    expect(stored.project_description).toBe(forged);
  });

  it('should name the logged-in account as the sender in the team e-mail, not the form fields', async () => {
    // "Submitted by" was the form's Email and Full name, which the browser sends: a user whose e-mail a login
    // link had proven could send a request that the team's e-mail said came from someone else entirely.
    const verified = await loginMagic(t, 'northbank', {
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: 'ada@example.com',
    });
    const form = multipart({
      ...DUE_DILIGENCE_FIELDS,
      SingleLine: 'Sent for someone else',
      Email: 'ceo@bigfund.example',
      SingleLine4: 'Jane Chief',
    });
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/northbank/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie: verified },
    });
    expect(response.statusCode).toBe(303);
    await t.app.background.drain();
    const mail = (await outboxMails(t.dataDir))
      .map(decodeMail)
      .find((text) => text.includes('Project name: Sent for someone else'));
    const lines = (mail ?? '').split(/\r?\n/);
    expect(lines.filter((line) => line.startsWith('Submitted by:'))).toEqual([
      'Submitted by: Ada Lovelace <ada@example.com> (the logged-in account)',
    ]);
    // The contact details the form gave are still there, as what they are.
    expect(lines).toContain('E-mail: ceo@bigfund.example');
    expect(lines).toContain('Full name: Jane Chief');
  });

  it('should store a file under a name every staff machine can save', async () => {
    // Names were cut to 200 characters, not bytes (200 `é` are 400 bytes: ext4 and XFS take 255), and kept
    // Windows device names (`CON.pdf` cannot be saved on Windows).
    const cases: [string, string, string][] = [
      ['Accented name', `${'é'.repeat(300)}.pdf`, `${'é'.repeat(125)}.pdf`],
      ['Emoji name', `${'\u{1F3E0}'.repeat(100)}.pdf`, `${'\u{1F3E0}'.repeat(62)}.pdf`],
      ['Device name', 'CON.pdf', 'CON_.pdf'],
      ['Device name with extensions', 'nul.tar.html', 'nul_.tar.pdf'],
    ];
    for (const [project, filename, shown] of cases) {
      const form = multipart(
        { ...DUE_DILIGENCE_FIELDS, SingleLine: project },
        { filename, content: Buffer.from('%PDF-1.7\n%%EOF\n'), contentType: 'application/pdf' },
      );
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/demo/due-diligence',
        payload: form.payload,
        headers: { ...form.headers, cookie },
      });
      expect(response.statusCode, project).toBe(303);
      expect((await row(project))?.attachment_name, project).toBe(shown);
    }
  });

  it('should still take plain text that opens with white space, or has a tag further on', async () => {
    const texts: [string, string, string][] = [
      ['Indented notes', 'notes.txt', `${' '.repeat(100)}Site visit on Monday.\n`],
      ['Tag later on', 'notes.txt', `${'\n'.repeat(80)}Fee < 2% of <cost>.\n`],
      ['Only white space', 'blank.txt', ' '.repeat(100)],
    ];
    for (const [project, filename, text] of texts) {
      const response = await upload(project, filename, Buffer.from(text, 'utf8'));
      expect(response.statusCode, project).toBe(303);
      expect(await row(project), project).toEqual({
        attachment_name: filename,
        attachment_mime: 'text/plain',
      });
    }
  });
});

describe('displayFileName, names a machine cannot save', () => {
  it('should keep every shown name within 255 bytes and clear of Windows device names', () => {
    const cases: [string, string, string][] = [
      [`${'a'.repeat(300)}.pdf`, 'pdf', `${'a'.repeat(196)}.pdf`],
      [`${'日'.repeat(200)}.docx`, 'docx', `${'日'.repeat(83)}.docx`],
      ['PRN', 'txt', 'PRN_.txt'],
      ['aux .pdf', 'pdf', 'aux_.pdf'],
      ['Com1.docx', 'docx', 'Com1_.docx'],
      ['lpt¹.pdf', 'pdf', 'lpt¹_.pdf'],
      ['CONOUT$.txt', 'txt', 'CONOUT$_.txt'],
      ['console.pdf', 'pdf', 'console.pdf'],
      ['COM10.pdf', 'pdf', 'COM10.pdf'],
      ['CON x.pdf', 'pdf', 'CON x.pdf'],
    ];
    for (const [name, ext, shown] of cases) {
      const result = displayFileName(name, ext);
      expect(result, name).toBe(shown);
      expect(Buffer.byteLength(result), name).toBeLessThanOrEqual(255);
    }
  });
});
