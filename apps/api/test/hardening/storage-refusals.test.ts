import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STORAGE_REFUSED_MESSAGE } from '../../src/app.js';
import { buildTestApp, loginOpen, multipart, pdf, type TestApp } from '../helper.js';
import { DUE_DILIGENCE_FIELDS } from './support.js';

/**
 * Found by the seventeenth session's fault probe: a data folder that refused a file operation while the server
 * ran (an uploads folder it may not write, or a file in its place; a media folder it may not read) was answered
 * 500 "Internal server error". It is a 503 saying so, with Retry-After, and the error in the log.
 */
describe('the data folder refusing a file operation while the server runs', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('should answer a due-diligence request 503 in plain words when the uploads folder is a file', async () => {
    const uploads = path.join(t.dataDir, 'uploads');
    await rm(uploads, { recursive: true, force: true });
    await writeFile(uploads, 'not a folder');
    try {
      const form = multipart(DUE_DILIGENCE_FIELDS, { filename: 'plan.pdf', content: pdf(2048) });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/demo/due-diligence',
        headers: { ...form.headers, cookie },
        payload: form.payload,
      });
      expect(response.statusCode, response.body).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
      expect(response.json()).toEqual({ error: STORAGE_REFUSED_MESSAGE });
      const stored = await t.app.db.kysely.selectFrom('due_diligence').select('id').execute();
      expect(stored).toEqual([]);
    } finally {
      await rm(uploads, { force: true });
      await mkdir(uploads);
    }
  });
});
