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
      expect(reloaded.getState().submission).toEqual({
        status: 'failed',
        id,
        body: { units: 1 },
        message: INTERRUPTED_MESSAGE,
      });
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
