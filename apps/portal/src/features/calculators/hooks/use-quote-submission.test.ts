import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { UNREACHABLE_MESSAGE, UNREADABLE_ANSWER_MESSAGE } from '@/lib/errors';

import { toContractorsAllRisksSubmission } from '../api/submit-contractors-all-risks';
import {
  initialContractorsAllRisksInputs,
  quoteContractorsAllRisksInputs,
  useContractorsAllRisksStore as store,
} from '../stores/contractors-all-risks-store';
import { INTERRUPTED_MESSAGE } from '../stores/create-draft-store';

import { useQuoteSubmission } from './use-quote-submission';

const quote = quoteContractorsAllRisksInputs(initialContractorsAllRisksInputs);
const body = toContractorsAllRisksSubmission(
  initialContractorsAllRisksInputs,
  { name: 'Ada Lovelace', telephone: '020 7946 0000', email: 'ada@example.com' },
  quote,
);

afterEach(() => {
  // The page is back (as from the back-forward cache): what a test told of it leaving is over.
  window.dispatchEvent(new Event('pageshow'));
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  store.getState().reset();
  sessionStorage.clear();
});

/** `send` with a post that fails, or is answered, when the test says. */
function sending() {
  let answer!: (value: unknown) => void;
  let fail!: (error: unknown) => void;
  const submit = vi.fn(
    () =>
      new Promise<never>((resolve, reject) => {
        answer = resolve as (value: unknown) => void;
        fail = reject;
      }),
  );
  const { result } = renderHook(() => useQuoteSubmission(store, submit, 'demo', 'CAR'));
  store.getState().claim('demo/ada@example.com');
  store.getState().setEstimate({ inputs: initialContractorsAllRisksInputs, quote });
  let done!: Promise<void>;
  act(() => {
    done = result.current(body);
  });
  return {
    answer: async (value: unknown) => {
      answer(value);
      await act(() => done);
    },
    fail: async (error: unknown) => {
      fail(error);
      await act(() => done);
    },
  };
}

/** The submission as the tab keeps it, for the page loaded next. */
function saved() {
  const stored = JSON.parse(sessionStorage.getItem('calculator:contractors-all-risks') ?? '{}') as {
    state?: { submission?: unknown };
  };
  return stored.state?.submission;
}

describe('useQuoteSubmission', () => {
  // Found by the eighteenth session's portal probe: the reloaded page said "The connection to our server failed."
  // for a post cut short by the reload, the browser's cancelling of it having replaced the message kept for it.
  describe('when the page is reloaded while the post is on its way', () => {
    it('should keep "The page was reloaded…", not the failure of the post the browser cancels', async () => {
      const post = sending();
      expect(saved()).toMatchObject({ status: 'failed', message: INTERRUPTED_MESSAGE });

      window.dispatchEvent(new Event('pagehide'));
      await post.fail(new TypeError('Failed to fetch'));

      expect(store.getState().submission).toMatchObject({
        status: 'failed',
        message: INTERRUPTED_MESSAGE,
        unanswered: true,
      });
      expect(saved()).toMatchObject({
        status: 'failed',
        message: INTERRUPTED_MESSAGE,
        unanswered: true,
      });
    });

    it('should put a failure at once after beforeunload down to the reload, but not one long after', async () => {
      let now = 1_000_000;
      vi.spyOn(Date, 'now').mockImplementation(() => now);
      window.dispatchEvent(new Event('beforeunload'));
      const cut = sending();
      await cut.fail(new TypeError('NetworkError when attempting to fetch resource.'));
      expect(store.getState().submission).toMatchObject({ message: INTERRUPTED_MESSAGE });

      // The page stayed (a download, say): a failure later is the connection's.
      now += 5_000;
      const later = sending();
      await later.fail(new TypeError('Failed to fetch'));
      expect(store.getState().submission).toMatchObject({ message: UNREACHABLE_MESSAGE });
    });

    it('should still say the connection failed while the page stays', async () => {
      const post = sending();
      await post.fail(new TypeError('Failed to fetch'));
      expect(store.getState().submission).toMatchObject({
        status: 'failed',
        message: UNREACHABLE_MESSAGE,
        unanswered: true,
      });
    });
  });

  // Found by the eighteenth session's portal probe: "Your reference: undefined. Our team has your details…".
  describe('when the answer has no reference of the API’s form', () => {
    it.each([
      ['no reference', { quote }],
      ['a reference of another calculator', { reference: 'BW-2026-000001', quote }],
      ['a reference that is not one', { reference: 'undefined', quote }],
      ['no body at all', undefined],
    ])('should not say the team has the details: %s', async (_, answer) => {
      const fetchMock = vi.fn<typeof fetch>();
      vi.stubGlobal('fetch', fetchMock);
      const post = sending();
      await post.answer(answer);
      expect(store.getState().submission).toMatchObject({
        status: 'failed',
        message: UNREADABLE_ANSWER_MESSAGE,
        unanswered: true,
      });
      // No 'submit' activity: the team is not known to have anything.
      expect(fetchMock).not.toHaveBeenCalled();
    });

    it('should take a reference of the API’s form', async () => {
      vi.stubGlobal(
        'fetch',
        vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))),
      );
      const post = sending();
      await post.answer({ reference: 'CAR-2026-000001', quote });
      expect(store.getState().submission).toMatchObject({
        status: 'sent',
        reference: 'CAR-2026-000001',
      });
    });
  });
});
