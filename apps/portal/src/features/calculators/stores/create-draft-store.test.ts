import { afterEach, describe, expect, it } from 'vitest';

import { createDraftStore, INTERRUPTED_MESSAGE } from './create-draft-store';

const KEY = 'calculator:test';
const initial = { units: 1, label: 'a' };

function makeStore() {
  return createDraftStore<typeof initial, { total: number }, { units: number }>(KEY, initial);
}

afterEach(() => {
  sessionStorage.clear();
});

describe('createDraftStore', () => {
  describe('given two posts in flight', () => {
    it('should keep the newer one’s outcome when the older one answers last', () => {
      const store = makeStore();
      const older = store.getState().startSubmission({ units: 1 });
      const newer = store.getState().startSubmission({ units: 2 });

      store.getState().finishSubmission(newer, { reference: 'BW-2026-000002' });
      store.getState().finishSubmission(older, { message: 'late failure' });

      expect(store.getState().submission).toEqual({
        status: 'sent',
        id: newer,
        body: { units: 2 },
        reference: 'BW-2026-000002',
        key: expect.stringMatching(/^[0-9a-f]{32}$/),
      });
    });
  });

  describe('given the page is reloaded while a post is on its way', () => {
    it('should come back as a failed, retryable submission of the same body', async () => {
      const store = makeStore();
      store.getState().setEstimate({ inputs: initial, quote: { total: 10 } });
      const id = store.getState().startSubmission({ units: 1 });

      const reloaded = makeStore();
      await reloaded.persist.rehydrate();

      expect(reloaded.getState().estimate).toEqual({ inputs: initial, quote: { total: 10 } });
      const sent = store.getState().submission;
      expect(reloaded.getState().submission).toEqual({
        status: 'failed',
        id,
        body: { units: 1 },
        message: INTERRUPTED_MESSAGE,
        unanswered: true,
        key: sent.status === 'sending' ? sent.key : 'none',
      });
    });
  });

  describe('the Idempotency-Key of a submission', () => {
    const keyOf = (store: ReturnType<typeof makeStore>) => {
      const submission = store.getState().submission;
      return submission.status === 'idle' ? undefined : submission.key;
    };

    it('should be kept by Try again, also after a reload, so a stored attempt is not stored twice', async () => {
      const store = makeStore();
      store.getState().setEstimate({ inputs: initial, quote: { total: 10 } });
      const first = store.getState().startSubmission({ units: 1 });
      const key = keyOf(store);
      expect(key).toMatch(/^[0-9a-f]{32}$/);
      store.getState().finishSubmission(first, { message: 'The connection to our server failed.' });
      store.getState().startSubmission({ units: 1 });
      expect(keyOf(store)).toBe(key);

      // Reloaded while the retry was on its way: the next Try again still sends that key.
      const reloaded = makeStore();
      await reloaded.persist.rehydrate();
      reloaded.getState().startSubmission({ units: 1 });
      expect(keyOf(reloaded)).toBe(key);
    });

    it('should be new for a new estimate, a changed body and a sent submission', () => {
      const store = makeStore();
      const keys = new Set<string | undefined>();
      store.getState().setEstimate({ inputs: initial, quote: { total: 10 } });
      const a = store.getState().startSubmission({ units: 1 });
      keys.add(keyOf(store));
      store.getState().finishSubmission(a, { message: 'failed' });
      const b = store.getState().startSubmission({ units: 2 });
      keys.add(keyOf(store));
      store.getState().finishSubmission(b, { reference: 'BW-2026-000003' });
      store.getState().startSubmission({ units: 2 });
      keys.add(keyOf(store));
      store.getState().setEstimate({ inputs: initial, quote: { total: 11 } });
      store.getState().startSubmission({ units: 2 });
      keys.add(keyOf(store));
      expect(keys.size).toBe(4);
    });
  });

  describe('given saved inputs of an older shape', () => {
    it('should keep only the fields that still exist with their type', async () => {
      sessionStorage.setItem(
        KEY,
        JSON.stringify({ state: { inputs: { units: 7, label: 3, gone: true } }, version: 1 }),
      );

      const store = makeStore();
      await store.persist.rehydrate();

      expect(store.getState().inputs).toEqual({ units: 7, label: 'a' });
    });
  });

  describe('when another user claims the draft', () => {
    it('should start from a fresh draft', () => {
      const store = makeStore();
      store.getState().claim('demo/ada@example.com');
      store.getState().setInput('units', 9);

      store.getState().claim('demo/grace@example.com');

      expect(store.getState()).toMatchObject({
        owner: 'demo/grace@example.com',
        inputs: initial,
        estimate: null,
      });
    });
  });
});
