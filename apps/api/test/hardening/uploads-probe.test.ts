import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMPTY_FILE_MESSAGE, displayFileName } from '../../src/services/uploads.js';
import { buildTestApp, databases, loginOpen, type TestApp } from '../helper.js';
import { DUE_DILIGENCE_FIELDS, multipart, pdf, walk } from './support.js';

const BOUNDARY = '----probe9Qx2';

/** A due-diligence form whose file part carries `disposition` as its Content-Disposition, as sent. */
function formWithFilePart(project: string, disposition: string, content: Buffer) {
  const fields = Object.entries({ ...DUE_DILIGENCE_FIELDS, SingleLine: project }).map(
    ([name, value]) =>
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return {
    payload: Buffer.concat([
      Buffer.from(fields.join('')),
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      content,
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]),
    headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
  };
}

describe.each(databases)('uploads, probed over the wire ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  const post = (form: { payload: Buffer; headers: Record<string, string> }) =>
    t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie },
    });
  const row = (project: string) =>
    t.app.db.kysely
      .selectFrom('due_diligence')
      .select(['reference', 'attachment_path', 'attachment_name'])
      .where('project_name', '=', project)
      .executeTakeFirst();
  /** Every file in the uploads folder is one a stored request points at. */
  const expectNothingUnreferenced = async () => {
    await t.app.background.drain();
    const rows = await t.app.db.kysely
      .selectFrom('due_diligence')
      .select('attachment_path')
      .where('attachment_path', 'is not', null)
      .execute();
    expect(await walk(path.join(t.dataDir, 'uploads'))).toEqual(
      rows.map((r) => r.attachment_path).sort(),
    );
  };

  it('should store a file part sent without a file name (a binary part is a file) under a generated name', async () => {
    // A part of type application/octet-stream is a file even with no `filename` (or only `filename*=`); it was
    // stored, then naming it failed: a 400 "malformed" and the stored file left behind, pointed at by nothing.
    const cases: [string, string][] = [
      ['No file name', 'form-data; name="FileUpload"'],
      ['Only an extended name', 'form-data; name="FileUpload"; filename*=UTF-8\'\'%2E%2E%2Fx.pdf'],
    ];
    for (const [project, disposition] of cases) {
      const content = pdf(500);
      const response = await post(formWithFilePart(project, disposition, content));
      expect(response.statusCode, project).toBe(303);
      const stored = await row(project);
      expect(stored?.attachment_path).toMatch(/^[0-9a-f-]{36}\.pdf$/);
      expect(stored?.attachment_name).toMatch(/^[^./\\][^/\\]*\.pdf$/);
      const bytes = await readFile(path.join(t.dataDir, 'uploads', stored?.attachment_path ?? ''));
      expect(bytes.equals(content)).toBe(true);
    }
    await expectNothingUnreferenced();
  });

  it('should answer 400 to an empty file sent under a name, saying it is empty, and keep nothing of it', async () => {
    const refused = await post(
      multipart(
        { ...DUE_DILIGENCE_FIELDS, SingleLine: 'Empty named file' },
        { filename: 'report.pdf', content: Buffer.alloc(0), contentType: 'application/pdf' },
      ),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: EMPTY_FILE_MESSAGE });
    expect(await row('Empty named file')).toBeUndefined();
    // The browser's "no file chosen" (an empty part with an empty name) is still a form without a file.
    const none = await post(
      multipart(
        { ...DUE_DILIGENCE_FIELDS, SingleLine: 'No file chosen' },
        { filename: '', content: Buffer.alloc(0) },
      ),
    );
    expect(none.statusCode).toBe(303);
    expect((await row('No file chosen'))?.attachment_path).toBeNull();
    await expectNothingUnreferenced();
  });
});

describe('displayFileName, hostile characters', () => {
  it('should drop C1 controls, format characters, separators and the characters Windows refuses', () => {
    const cases: [string, string][] = [
      ['\u0085report.pdf', 'report.pdf'],
      ['re\u009bport.pdf', 'report.pdf'],
      ['a\u2028b\u2029c.pdf', 'abc.pdf'],
      ['x.pdf\u200b.exe', 'x.pdf.pdf'],
      ['\ufeffplan.pdf', 'plan.pdf'],
      ['in\u00advoice.pdf', 'invoice.pdf'],
      ['a\u180eb.pdf', 'ab.pdf'],
      ['C:x.pdf', 'Cx.pdf'],
      ['x.pdf:stream', 'x.pdf'],
      ['a<b>c|d?e*.pdf', 'abcde.pdf'],
      ['\udc80plan.pdf', 'plan.pdf'],
      ['café.pdf', 'café.pdf'],
      ['\u{1F600}.pdf', '\u{1F600}.pdf'],
    ];
    for (const [name, shown] of cases) {
      expect(displayFileName(name, 'pdf'), JSON.stringify(name)).toBe(shown);
    }
  });
});
