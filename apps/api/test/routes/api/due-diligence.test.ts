import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  buildTestApp,
  countRows,
  databases,
  decodeMail,
  loginOpen,
  multipart,
  outboxMails,
  pdf,
  type FilePart,
  type TestApp,
} from '../../helper.js';
import { sweepOrphanUploads } from '../../../src/services/upload-sweep.js';
import { compoundFile, docx, xlsx } from '../../office-fixtures.js';

const MB20 = 20 * 1024 * 1024;
const FIELDS = {
  SingleLine: 'Harbour Quay',
  SingleLine1: '1 Quay Street',
  SingleLine2: 'Portsmouth PO1 1AA',
  SingleLine3: 'Sixty-four apartments over a basement car park.',
  Currency1: '12500000',
  Currency2: '21000000',
  Currency: '9000000',
  Email: 'ada@example.com',
  SingleLine4: 'Ada Lovelace',
};

describe.each(databases)('POST /api/{client}/due-diligence ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  let formService: Server;
  const received: { status: number; body: Buffer }[] = [];
  // The form service is down for the first forward (sent in the background after the first test's POST,
  // possibly before that test ends): the second test checks the retry.
  const answers: number[] = [503];

  beforeAll(async () => {
    formService = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const status = answers.shift() ?? 200;
        received.push({ status, body: Buffer.concat(chunks) });
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => formService.listen(0, '127.0.0.1', resolve));
    const port = (formService.address() as AddressInfo).port;
    t = await buildTestApp(target, {
      FORM_SERVICE_URL: `http://127.0.0.1:${port}/forms/dd`,
      TEAM_EMAIL: 'dd@advisory.example',
    });
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
    await new Promise((resolve) => formService.close(resolve));
  });

  const uploads = async () => {
    try {
      return await readdir(path.join(t.dataDir, 'uploads'));
    } catch {
      return [];
    }
  };
  const post = (form: { payload: Buffer; headers: Record<string, string> }, extra = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie, ...extra },
    });

  it('should store the request and file, then answer 303 to the success page', async () => {
    const content = pdf(4096);
    const response = await post(
      multipart(FIELDS, { filename: '../../etc/passwd.pdf', contentType: 'text/plain', content }),
    );
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/demo/due-diligence?success=1');

    const row = await t.app.db.kysely
      .selectFrom('due_diligence')
      .selectAll()
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      reference: 'DD-2026-000001',
      project_name: 'Harbour Quay',
      project_address: '1 Quay Street',
      city_postcode: 'Portsmouth PO1 1AA',
      build_cost: '12500000',
      gdv: '21000000',
      loan_amount: '9000000',
      email: 'ada@example.com',
      full_name: 'Ada Lovelace',
      attachment_name: 'passwd.pdf',
      attachment_size: 4096,
      attachment_mime: 'application/pdf',
    });
    expect(row.attachment_path).toMatch(/^[0-9a-f-]{36}\.pdf$/);
    expect(await uploads()).toEqual([row.attachment_path]);
    const stored = await readFile(path.join(t.dataDir, 'uploads', row.attachment_path ?? ''));
    expect(stored.equals(content)).toBe(true);
  });

  it('should e-mail the team with the file and forward to the form service, retrying until accepted', async () => {
    await t.app.background.drain();
    await t.app.outbox.runOnce();
    const mail = (await outboxMails(t.dataDir))
      .map(decodeMail)
      .find((m) => m.includes('DD-2026-000001'));
    expect(mail).toContain('To: dd@advisory.example');
    expect(mail).toContain('Project name: Harbour Quay');
    expect(mail).toContain('filename=passwd.pdf');

    // The form service was down: the forward is kept with a back-off.
    expect(received.map((r) => r.status)).toEqual([503]);
    const waiting = await t.app.db.kysely
      .selectFrom('outbox')
      .selectAll()
      .where('kind', '=', 'forward')
      .executeTakeFirstOrThrow();
    expect(waiting).toMatchObject({
      attempts: 1,
      sent_at: null,
      last_error: 'Form service answered 503',
    });
    await t.app.outbox.runOnce();
    expect(received).toHaveLength(1); // not due yet

    t.clock.advance(31_000);
    await t.app.outbox.runOnce();
    expect(received.map((r) => r.status)).toEqual([503, 200]);
    const body = received[1]?.body.toString('latin1') ?? '';
    expect(body).toContain('name="SingleLine"\r\n\r\nHarbour Quay');
    expect(body).toContain('name="SingleLine4"\r\n\r\nAda Lovelace');
    expect(body).toContain('name="FileUpload"; filename="passwd.pdf"');
    expect(body).toContain('%PDF-1.7');
    const sent = await t.app.db.kysely
      .selectFrom('outbox')
      .select(['sent_at', 'attempts'])
      .where('kind', '=', 'forward')
      .executeTakeFirstOrThrow();
    expect(sent.sent_at).not.toBeNull();
  });

  it('should accept a request without a file, and a file of exactly 20 MB', async () => {
    const noFile = await post(multipart({ ...FIELDS, SingleLine: 'No file' }));
    expect(noFile.statusCode).toBe(303);
    const exact = await post(
      multipart(
        { ...FIELDS, SingleLine: 'Exactly 20MB' },
        { filename: 'big.pdf', content: pdf(MB20) },
      ),
    );
    expect(exact.statusCode).toBe(303);
    const sizes = await t.app.db.kysely
      .selectFrom('due_diligence')
      .select(['project_name', 'attachment_size'])
      .where('project_name', 'in', ['No file', 'Exactly 20MB'])
      .orderBy('project_name')
      .execute();
    expect(sizes).toEqual([
      { project_name: 'Exactly 20MB', attachment_size: MB20 },
      { project_name: 'No file', attachment_size: null },
    ]);
  });

  it('should answer 413 to 20 MB + 1 byte and leave nothing on disk', async () => {
    const before = await uploads();
    const rows = await t.app.db.kysely.selectFrom('due_diligence').select('id').execute();
    const response = await post(
      multipart(FIELDS, { filename: 'huge.pdf', content: pdf(MB20 + 1) }),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ error: 'File size should be less than 20MB.' });
    expect(await uploads()).toEqual(before);
    expect(await t.app.db.kysely.selectFrom('due_diligence').select('id').execute()).toHaveLength(
      rows.length,
    );
  });

  it('should answer 415 to a type not on the allow-list, judged by content, and leave nothing on disk', async () => {
    const before = await uploads();
    const cases: FilePart[] = [
      {
        filename: 'report.pdf',
        contentType: 'application/pdf',
        content: Buffer.from('MZ\x90\x00binary exe'),
      },
      { filename: 'notes.txt', content: Buffer.from([0x68, 0x69, 0x00, 0x21]) },
      // Not UTF-8, and named as no text.
      { filename: 'bad.pdf', content: Buffer.from([0xc3, 0x28, 0x41]) },
      { filename: 'archive.zip', content: Buffer.from([0x50, 0x4b, 0x03, 0x04, 0, 0, 0, 0]) },
      { filename: 'page.html', content: Buffer.from('<svg onload=alert(1)>\0') },
      // Text, but not what its name says, or a page rather than plain text.
      {
        filename: 'invoice.pdf',
        contentType: 'application/pdf',
        content: Buffer.from('Pay now\n'),
      },
      { filename: 'invoice.html', content: Buffer.from('<b>Pay now</b>\n') },
      { filename: 'image.txt', content: Buffer.from('<svg onload="alert(1)"/>') },
    ];
    for (const file of cases) {
      const response = await post(multipart(FIELDS, file));
      expect(response.statusCode, file.filename).toBe(415);
      expect(response.json()).toEqual({
        error: 'This file type is not allowed. Upload a PDF, Word, Excel, image or text file.',
      });
    }
    expect(await uploads()).toEqual(before);
  });

  // Found by the twenty-eighth session's probe: a CSV as Excel saves it by default (Windows-1252) was told that its
  // file type is not allowed; so was UTF-16 text (twenty-ninth).
  it('should tell a text or CSV file that is not UTF-8 to be saved as UTF-8, and leave nothing on disk', async () => {
    const before = await uploads();
    const rows = await countRows(t.app, 'due_diligence');
    for (const file of [
      { filename: 'costs.csv', content: Buffer.from('Item,Cost\nCafé,£45,000\n', 'latin1') },
      { filename: 'bad.txt', content: Buffer.from([0xc3, 0x28, 0x41]) },
      // Excel's "Unicode Text": UTF-16 with its byte order mark (twenty-ninth session's upload probe).
      {
        filename: 'costs.txt',
        content: Buffer.from('\uFEFFItem\tCost\nCafé\t£45,000\n', 'utf16le'),
      },
    ]) {
      const response = await post(multipart(FIELDS, file));
      expect(response.statusCode, file.filename).toBe(415);
      expect(response.json()).toEqual({
        error:
          'This text or CSV file is not saved as UTF-8. Save it as UTF-8 (in Excel: "CSV UTF-8 (Comma delimited)") and upload it again.',
      });
    }
    expect(await uploads()).toEqual(before);
    expect(await countRows(t.app, 'due_diligence')).toBe(rows);
  });

  it('should accept Office documents, images and text by their content', async () => {
    const cases: [FilePart, string][] = [
      [
        { filename: 'plan.docx', content: docx() },
        'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      ],
      [
        {
          filename: 'photo.bin',
          content: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2]),
        },
        'image/png',
      ],
      [{ filename: 'costs.csv', content: Buffer.from('item,cost\nroof,£12,000\n') }, 'text/csv'],
      [{ filename: 'old.doc', content: compoundFile(['WordDocument']) }, 'application/msword'],
      [
        { filename: 'costs.xlsx', content: xlsx() },
        'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      ],
    ];
    for (const [file, mime] of cases) {
      const response = await post(multipart({ ...FIELDS, SingleLine: file.filename }, file));
      expect(response.statusCode, file.filename).toBe(303);
      const row = await t.app.db.kysely
        .selectFrom('due_diligence')
        .select('attachment_mime')
        .where('project_name', '=', file.filename)
        .executeTakeFirstOrThrow();
      expect(row.attachment_mime).toBe(mime);
    }
  });

  it('should answer 400 naming a missing required field, and keep no file', async () => {
    const before = await uploads();
    const { SingleLine2: _omitted, ...rest } = FIELDS;
    const response = await post(multipart(rest, { filename: 'a.pdf', content: pdf(100) }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      error: 'Missing required field "SingleLine2" (City and postcode).',
    });
    for (const nothing of ['   ', '\u200b\u200d', ' \u2060 ']) {
      const blank = await post(multipart({ ...FIELDS, SingleLine: nothing }));
      expect(blank.statusCode, JSON.stringify(nothing)).toBe(400);
      expect(blank.json()).toEqual({
        error: 'Missing required field "SingleLine" (Project name).',
      });
    }
    expect(await uploads()).toEqual(before);
  });

  it('should take line breaks only in the description (elsewhere they would add lines to the mail)', async () => {
    const before = await uploads();
    for (const [field, label] of [
      ['SingleLine4', 'Full name'],
      ['Email', 'E-mail'],
      ['SingleLine', 'Project name'],
    ] as const) {
      const response = await post(
        multipart(
          { ...FIELDS, [field]: 'Ada\r\nBcc: x@example.com' },
          { filename: 'a.pdf', content: pdf(100) },
        ),
      );
      expect(response.statusCode, field).toBe(400);
      expect(response.json()).toEqual({
        error: `The field "${field}" (${label}) must be one line.`,
      });
    }
    expect(await uploads()).toEqual(before);
    const described = await post(
      multipart({ ...FIELDS, SingleLine3: 'Twelve flats.\r\nBasement car park.\n' }),
    );
    expect(described.statusCode).toBe(303);
  });

  it('should answer 400 to an unknown field or a second file', async () => {
    const unknown = await post(multipart({ ...FIELDS, Admin: 'yes' }));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toEqual({ error: 'Unknown field "Admin".' });
    const otherFile = await post(
      multipart(FIELDS, { field: 'Other', filename: 'a.pdf', content: pdf(10) }),
    );
    expect(otherFile.statusCode).toBe(400);
    expect(otherFile.json()).toEqual({ error: 'Unknown field "Other".' });
    // A field the form has, sent as a file: named as such, not as unknown.
    const { SingleLine: _name, ...withoutName } = FIELDS;
    const nameAsFile = await post(
      multipart(withoutName, {
        field: 'SingleLine',
        filename: 'name.txt',
        content: Buffer.from('Quay'),
      }),
    );
    expect(nameAsFile.statusCode).toBe(400);
    expect(nameAsFile.json()).toEqual({
      error: 'The field "SingleLine" (Project name) must be sent as text, not as a file.',
    });
  });

  it('should answer the form limits with a 400 in its own words, and keep no file', async () => {
    const before = await uploads();
    const rows = await t.app.db.kysely.selectFrom('due_diligence').select('id').execute();
    const boundary = '----firmtest7MA4YWxkTrZu0gW';
    const form = (parts: string[] | Buffer[]) => ({
      payload: Buffer.concat([
        ...parts.map((p) => Buffer.from(p)),
        Buffer.from(`--${boundary}--\r\n`),
      ]),
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    });
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const file = (name: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="FileUpload"; filename="${name}"\r\n` +
      `Content-Type: application/pdf\r\n\r\n${pdf(2000).toString('latin1')}\r\n`;
    const valid = Object.entries(FIELDS).map(([name, value]) => field(name, value));
    const cases: [string, { payload: Buffer; headers: Record<string, string> }, string][] = [
      [
        'an unknown file part, then the file',
        form([...valid, file('a.pdf').replace('name="FileUpload"', 'name="Other"'), file('b.pdf')]),
        'Unknown field "Other".',
      ],
      [
        'two files',
        form([...valid, file('a.pdf'), file('b.pdf')]),
        'Only one file can be attached.',
      ],
      [
        'a file first, then another',
        form([file('a.pdf'), ...valid, file('b.pdf')]),
        'Only one file can be attached.',
      ],
      [
        '21 fields',
        form([...valid, ...Array.from({ length: 12 }, (_, i) => field(`Extra${i}`, 'x'))]),
        'Too many fields in the form.',
      ],
      [
        '26 parts',
        form([
          ...valid,
          ...Array.from({ length: 17 }, () => `--${boundary}\r\nX-Part: 1\r\n\r\nx\r\n`),
        ]),
        'Too many fields in the form.',
      ],
      [
        'a field named __proto__',
        form([...valid, file('a.pdf'), field('__proto__', 'x')]),
        'A field in the form has a name that is not allowed.',
      ],
      [
        'a field named constructor',
        form([field('constructor', 'x'), ...valid]),
        'A field in the form has a name that is not allowed.',
      ],
    ];
    for (const [label, body, error] of cases) {
      const response = await post(body);
      expect(response.statusCode, label).toBe(400);
      expect(response.json(), label).toEqual({ error });
    }
    expect(await uploads()).toEqual(before);
    expect(await t.app.db.kysely.selectFrom('due_diligence').select('id').execute()).toHaveLength(
      rows.length,
    );
  });

  // Found by the twenty-eighth session's probe: told that the field "SingleLine" held a NUL character.
  it('should say that a NUL character is in a field’s name, not in its value', async () => {
    const before = await countRows(t.app, 'due_diligence');
    for (const [fields, says] of [
      [
        { ...FIELDS, 'SingleLine\u0000': 'Harbour Quay' },
        'The name of the field "SingleLine" contains a NUL character.',
      ],
      [
        { ...FIELDS, SingleLine: 'Harbour\u0000Quay' },
        'The field "SingleLine" contains a NUL character.',
      ],
      // Thirtieth session's PostgreSQL probe: a name of only NULs was quoted as "".
      [{ ...FIELDS, '\u0000': 'x' }, 'The name of a field holds nothing but NUL characters.'],
      [{ ...FIELDS, '\u0000\u0000': 'x' }, 'The name of a field holds nothing but NUL characters.'],
    ] as const) {
      const response = await post(multipart(fields));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error: says });
    }
    expect(await countRows(t.app, 'due_diligence')).toBe(before);
  });

  it('should quote a field name in a message cut to 40 characters', async () => {
    const long = 'n'.repeat(60_000);
    const cases = [
      multipart({ ...FIELDS, [long]: 'x' }),
      multipart(FIELDS, { field: long, filename: 'a.pdf', content: pdf(10) }),
      multipart({ ...FIELDS, [`${long}\u0000`]: 'x' }),
    ];
    for (const form of cases) {
      const response = await post(form);
      expect(response.statusCode).toBe(400);
      const { error } = response.json<{ error: string }>();
      expect(error).toContain(`"${'n'.repeat(40)}…"`);
      expect(error.length).toBeLessThan(100);
    }
  });

  it('should name the attachment with the extension of its content, in the record, the e-mail and the forward', async () => {
    await t.app.background.drain();
    await t.app.outbox.runOnce();
    const forwardsBefore = received.length;
    const long = `${'q'.repeat(300)}.html`;
    const cases: [FilePart, string][] = [
      [
        { filename: 'site-notes', content: Buffer.from('Access from Quay Street.\n') },
        'site-notes.txt',
      ],
      [{ filename: 'costs.CSV', content: Buffer.from('item,cost\nframe,120000\n') }, 'costs.csv'],
      [
        {
          filename: 'report.html',
          contentType: 'text/html',
          content: Buffer.concat([pdf(200), Buffer.from('<script>alert(1)</script>')]),
        },
        'report.pdf',
      ],
      [{ filename: long, content: pdf(100) }, `${'q'.repeat(196)}.pdf`],
      [{ filename: 'plan.DOCX', content: docx() }, 'plan.docx'],
    ];
    for (const [file, name] of cases) {
      const project = `Named ${name.slice(0, 20)}`;
      const response = await post(multipart({ ...FIELDS, SingleLine: project }, file));
      expect(response.statusCode, file.filename).toBe(303);
      const row = await t.app.db.kysely
        .selectFrom('due_diligence')
        .select(['reference', 'attachment_name'])
        .where('project_name', '=', project)
        .executeTakeFirstOrThrow();
      expect(row.attachment_name).toBe(name);
      await t.app.background.drain();
      await t.app.outbox.runOnce();
      const mail = (await outboxMails(t.dataDir))
        .map(decodeMail)
        .find((m) => m.includes(row.reference));
      expect(mail).toContain(`Attached: ${name} (`);
      // A long name is split into RFC 2231 continuations (filename*0=…; filename*1=…).
      const header =
        /Content-Disposition: attachment;([^]*?)\r?\n\r?\n/.exec(mail ?? '')?.[1] ?? '';
      const filename = header.replace(/\s*filename(\*\d+)?=/g, '').replace(/;/g, '');
      expect(filename).toBe(name);
      expect(mail).not.toMatch(/\.(html|svg)\b/);
    }
    t.clock.advance(3_600_000);
    await t.app.outbox.runOnce();
    const forwarded = received
      .slice(forwardsBefore)
      .filter((r) => r.status === 200)
      .map((r) => /name="FileUpload"; filename="([^"]*)"/.exec(r.body.toString('latin1'))?.[1]);
    expect(forwarded.sort()).toEqual(cases.map(([, name]) => name).sort());
  });

  it('should answer 415 to a body that is not multipart', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: FIELDS,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(415);
    // Found by the twentieth session's API probe: a body labelled JSON was read as JSON before its type was
    // refused, and a form's bytes under that label were a 400 "not well-formed JSON".
    const form = multipart(FIELDS, { filename: 'a.pdf', content: pdf(64) });
    for (const type of ['application/json', 'text/plain', 'application/x-www-form-urlencoded']) {
      const labelled = await t.app.inject({
        method: 'POST',
        url: '/api/demo/due-diligence',
        payload: form.payload,
        headers: { ...form.headers, cookie, 'content-type': type },
      });
      expect(labelled.statusCode, type).toBe(415);
      expect(labelled.json(), type).toEqual({ error: 'Send the form as multipart/form-data.' });
    }
  });

  describe('given files a crash left behind in the uploads folder', () => {
    it('should sweep old partial and unreferenced files, and keep stored attachments and recent files', async () => {
      const response = await post(multipart(FIELDS, { filename: 'kept.pdf', content: pdf(2048) }));
      expect(response.statusCode).toBe(303);
      const dir = path.join(t.dataDir, 'uploads');
      const rows = await t.app.db.kysely
        .selectFrom('due_diligence')
        .select('attachment_path')
        .where('attachment_path', 'is not', null)
        .execute();
      const attached = rows.map((r) => r.attachment_path as string);
      const hourAndMore = new Date(Date.now() - 2 * 60 * 60_000);
      const files = {
        oldPartial: 'tmp-0123456789abcdef0123456789abcdef',
        newPartial: 'tmp-fedcba9876543210fedcba9876543210',
        oldOrphan: 'orphan-stored-by-a-request-that-never-committed.pdf',
        newOrphan: 'stored-a-moment-ago-its-request-still-committing.pdf',
      };
      for (const name of Object.values(files)) await writeFile(path.join(dir, name), 'x');
      for (const name of [files.oldPartial, files.oldOrphan, ...attached]) {
        await utimes(path.join(dir, name), hourAndMore, hourAndMore);
      }

      const removed = await sweepOrphanUploads(t.app.db.kysely, dir, new Date());

      expect(removed.sort()).toEqual([files.oldOrphan, files.oldPartial].sort());
      const left = await uploads();
      for (const name of [files.newPartial, files.newOrphan, ...attached]) {
        expect(left).toContain(name);
      }
      expect(left).not.toContain(files.oldPartial);
      expect(left).not.toContain(files.oldOrphan);
    });
  });
});
