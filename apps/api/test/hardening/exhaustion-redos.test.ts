import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inexactWholeNumber } from '../../src/plugins/external/body-parsers.js';
import { displayFileName } from '../../src/services/uploads.js';
import { buildTestApp, databases, loginOpen, type TestApp } from '../helper.js';
import { DUE_DILIGENCE_FIELDS, multipart, walk } from './support.js';

/**
 * Inputs built to make a regular expression backtrack: each was quadratic, so one request held the event
 * loop (every other client waited) for seconds. Timings are generous (a shared, noisy machine): the old code
 * took a minute or more on the direct inputs below, the new one milliseconds.
 */
const ANSWERED_WITHIN_MS = 10_000;

/** How long `run` takes, in milliseconds. */
function timed<T>(run: () => T): { result: T; ms: number } {
  const started = performance.now();
  const result = run();
  return { result, ms: performance.now() - started };
}

describe('backtracking inputs, directly', () => {
  it('should judge a number with a long run of zeros before its last digit in linear time', () => {
    // `1.000…0001e20` reads as the whole number 1e20, so its digits are compared with it; stripping the
    // trailing zeros with `/0+$/` rescanned the run of zeros from each of its zeros.
    const token = `1.${'0'.repeat(200_000)}1e20`;
    const { result, ms } = timed(() => inexactWholeNumber(`{"x":${token}}`));
    expect(result).toEqual({ token, value: 1e20 });
    expect(ms).toBeLessThan(ANSWERED_WITHIN_MS);
    // Trailing zeros are still not digits that count.
    expect(inexactWholeNumber(`[1${'0'.repeat(20)}.${'0'.repeat(30)}e-5]`)).toBe(undefined);
    expect(inexactWholeNumber('[9007199254740993.000]')).toEqual({
      token: '9007199254740993.000',
      value: 9007199254740992,
    });
  });

  it('should trim spaces and dots off a long file name in linear time', () => {
    // `/[\s.]+$/` tried every space of a long run as the start of the trailing run.
    const name = `a${' '.repeat(200_000)}b.txt`;
    const { result, ms } = timed(() => displayFileName(name, 'txt'));
    expect(result).toBe('a.txt');
    expect(ms).toBeLessThan(ANSWERED_WITHIN_MS);
    const dotted = timed(() => displayFileName(`x${'. '.repeat(100_000)}y.pdf`, 'pdf'));
    expect(dotted.result).toBe('x.pdf');
    expect(dotted.ms).toBeLessThan(ANSWERED_WITHIN_MS);
    // What the trim is for is unchanged.
    expect(displayFileName(' ..hidden. .pdf. . ', 'pdf')).toBe('hidden.pdf');
    expect(displayFileName('\u3000report\ufeff.pdf', 'pdf')).toBe('report.pdf');
  });
});

describe.each(databases)('backtracking inputs over the wire ($name)', (target) => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp(target);
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it('should refuse a body-sized number with a run of zeros quickly, with the { error } contract', async () => {
    const zeros = 64 * 1024 - 40;
    for (const url of ['/api/demo/login', '/api/demo/warranty']) {
      const started = performance.now();
      const response = await t.app.inject({
        method: 'POST',
        url,
        payload: `{"x":1.${'0'.repeat(zeros)}1e20}`,
        headers: { cookie, 'content-type': 'application/json' },
      });
      expect(performance.now() - started, url).toBeLessThan(ANSWERED_WITHIN_MS);
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({
        error: `Invalid body: the number 1.${'0'.repeat(28)}…${'0'.repeat(6)}1e20 cannot be held exactly (it would be read as 100000000000000000000).`,
      });
    }
  });

  it('should store an upload whose name is a header-sized run of spaces, quickly, under a short name', async () => {
    const name = `a${' '.repeat(78_000)}b.txt`;
    const form = multipart(
      { ...DUE_DILIGENCE_FIELDS, SingleLine: 'Long spaced name' },
      { filename: name, content: Buffer.from('plain text\n'), contentType: 'text/plain' },
    );
    const started = performance.now();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/demo/due-diligence',
      payload: form.payload,
      headers: { ...form.headers, cookie },
    });
    expect(performance.now() - started).toBeLessThan(ANSWERED_WITHIN_MS);
    expect(response.statusCode).toBe(303);
    const row = await t.app.db.kysely
      .selectFrom('due_diligence')
      .select(['attachment_name', 'attachment_path'])
      .where('project_name', '=', 'Long spaced name')
      .executeTakeFirstOrThrow();
    expect(row.attachment_name).toBe('a.txt');
    await t.app.background.drain();
    expect(await walk(path.join(t.dataDir, 'uploads'))).toContain(row.attachment_path);
  });
});
