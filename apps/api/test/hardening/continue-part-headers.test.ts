import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, databases, loginOpen, pdf, type TestApp } from '../helper.js';
import { DUE_DILIGENCE_FIELDS, walk } from './support.js';

const BOUNDARY = '----firmheaders9x';

/** A part: its header lines (as sent) and its content. */
interface Part {
  headers: readonly string[];
  content: Buffer | string;
}

const field = (name: string, value: string, extra: string[] = []): Part => ({
  headers: [...extra, `Content-Disposition: form-data; name="${name}"`],
  content: value,
});

function body(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const part of parts) {
    chunks.push(Buffer.from(`--${BOUNDARY}\r\n${part.headers.join('\r\n')}\r\n\r\n`));
    chunks.push(Buffer.from(part.content), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const manyHeaders = (n: number) => Array.from({ length: n }, (_, i) => `X-Pad-${i}: ${i}`);
const fileHeaders = [
  'Content-Disposition: form-data; name="FileUpload"; filename="plan.pdf"',
  'Content-Type: application/pdf',
];

describe.each(databases)(
  'due diligence: part headers past the parser’s limits ($name)',
  (target) => {
    let t: TestApp;
    let cookie: string;
    beforeAll(async () => {
      t = await buildTestApp(target);
      cookie = await loginOpen(t.app);
    });
    afterAll(async () => {
      await t.close();
    });

    const post = (parts: Part[]) =>
      t.app.inject({
        method: 'POST',
        url: '/api/demo/due-diligence',
        headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: body(parts),
      });
    const fields = (except = '') =>
      Object.entries(DUE_DILIGENCE_FIELDS)
        .filter(([name]) => name !== except)
        .map(([name, value]) => field(name, value));
    const kept = async () => ({
      uploads: await walk(path.join(t.dataDir, 'uploads')),
      rows: (await t.app.db.kysely.selectFrom('due_diligence').select('id').execute()).length,
    });

    it('should name a part with 2,000 headers, wherever its Content-Disposition is', async () => {
      const before = await kept();
      for (const part of [
        field('SingleLine', 'Harbour Quay', manyHeaders(2000)),
        {
          ...field('SingleLine', 'Harbour Quay'),
          headers: [field('SingleLine', '').headers[0] ?? '', ...manyHeaders(2000)],
        },
      ]) {
        const response = await post([...fields('SingleLine'), part]);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({
          error: 'A part of the form has more than 100 header lines.',
        });
      }
      expect(await kept()).toEqual(before);
    });

    it('should name a part whose headers are over 80 KB', async () => {
      const before = await kept();
      const response = await post([
        ...fields('SingleLine1'),
        field('SingleLine1', '1 Quay Street', [`X-Pad: ${'a'.repeat(100 * 1024)}`]),
      ]);
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json()).toEqual({ error: 'A part of the form has headers over 80 KB.' });
      expect(await kept()).toEqual(before);
    });

    it('should keep nothing of a file sent with a part the parser drops', async () => {
      const before = await kept();
      for (const parts of [
        // The file's own headers past the limit.
        [...fields(), { headers: [...manyHeaders(150), ...fileHeaders], content: pdf(4096) }],
        // A good file, then a part without a Content-Disposition.
        [
          { headers: fileHeaders, content: pdf(4096) },
          ...fields(),
          { headers: ['Content-Type: text/plain'], content: 'stray' },
        ],
      ]) {
        const response = await post(parts);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({
          error: expect.stringMatching(/^A part of the form /) as string,
        });
      }
      expect(await kept()).toEqual(before);
    });

    it('should name a part without Content-Disposition or a name in it, or with a header line not well formed', async () => {
      for (const [part, error] of [
        [
          { headers: ['Content-Type: text/plain'], content: 'x' },
          'A part of the form has no Content-Disposition: form-data header naming its field.',
        ],
        [
          {
            headers: ['No colon here', 'Content-Disposition: form-data; name="SingleLine"'],
            content: 'x',
          },
          'A part of the form has a header line that is not well formed.',
        ],
        [
          { headers: ['Content-Disposition: form-data'], content: 'x' },
          'A part of the form has a Content-Disposition header without a name for its field.',
        ],
        [
          { headers: ['Content-Disposition: form-data; filename="a.txt"'], content: 'x' },
          'A part of the form has a Content-Disposition header without a name for its field.',
        ],
      ] as const) {
        const response = await post([...fields('SingleLine'), part]);
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json()).toEqual({ error });
      }
    });

    it('should still take a form whose parts have a few headers each, and a file', async () => {
      const before = await kept();
      const response = await post([
        ...Object.entries(DUE_DILIGENCE_FIELDS).map(([name, value]) =>
          field(name, value, manyHeaders(20)),
        ),
        { headers: [...manyHeaders(50), ...fileHeaders], content: pdf(4096) },
      ]);
      expect(response.statusCode, response.body).toBe(303);
      expect((await kept()).rows).toBe(before.rows + 1);
    });
  },
);
