import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Compression from '../../../src/services/compression.js';
import { buildTestApp, loginOpen, type TestApp } from '../../helper.js';

/** The smallest-setting compressions asked for, each held until the test lets it finish. */
const held = vi.hoisted(() => [] as { release: () => void }[]);

vi.mock('../../../src/services/compression.js', async (importOriginal) => {
  const actual = await importOriginal<typeof Compression>();
  return {
    ...actual,
    compressAsync: async (...args: Parameters<typeof actual.compressAsync>) => {
      await new Promise<void>((resolve) => held.push({ release: resolve }));
      return actual.compressAsync(...args);
    },
  };
});

// Found by the twenty-second session's API probe: every search sent twice started its own smallest brotli in
// libuv's thread pool, and a few hundred searches held every static and media file read for seconds.
describe('content answers re-made at their smallest', () => {
  let t: TestApp;
  let cookie: string;
  beforeAll(async () => {
    t = await buildTestApp({ name: 'sqlite', url: null });
    cookie = await loginOpen(t.app);
  });
  afterAll(async () => {
    for (const { release } of held) release();
    await t.close();
  });

  const get = (search: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/demo/content?search=${encodeURIComponent(search)}`,
      headers: { cookie, 'accept-encoding': 'br' },
    });

  it('should re-make one answer at a time, and take searches that fold alike as one answer', async () => {
    for (const search of ['e', 'a']) {
      expect((await get(search)).headers['content-encoding']).toBe('br');
    }
    // Sent again: the first starts its re-making; the second's waits, as do case variants of the first.
    await get('e');
    await get('a');
    await get('E');
    await get('\uff45'); // a full-width "e", which search folds to "e"
    await new Promise((resolve) => setImmediate(resolve));
    expect(held).toHaveLength(1);
    held.shift()?.release();
    await vi.waitFor(() => expect(held).toHaveLength(0));
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Its turn comes at its next request.
    await get('a');
    await vi.waitFor(() => expect(held).toHaveLength(1));
    held.shift()?.release();
  });
});
