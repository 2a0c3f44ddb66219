import { useCallback } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';

import { recordActivity } from '@/lib/activity';
import { ApiError, UnreadableAnswerError } from '@/lib/api-client';
import { TIMEOUT_MESSAGE, UNREACHABLE_MESSAGE, UNREADABLE_ANSWER_MESSAGE } from '@/lib/errors';

import type { QuoteSubmissionResponse } from '@/types/api';

import { INTERRUPTED_MESSAGE, type DraftState } from '../stores/create-draft-store';

type DraftStore<I, Q, B> = UseBoundStore<StoreApi<DraftState<I, Q, B>>>;

export { TIMEOUT_MESSAGE, UNREACHABLE_MESSAGE };

/**
 * Posts a calculator submission and records how it went in the calculator's draft store, so the
 * outcome survives navigating away while the post is on its way. Records a 'submit' activity
 * (item = the calculator's name) once the team has the details.
 *
 * @param store - the calculator's draft store
 * @param submit - the endpoint's fetcher (with the submission's `Idempotency-Key`)
 * @param activityItem - the calculator's name, as recorded in the activity log
 * @returns `send(body)`, which never throws: a failure is kept in the store
 */
export function useQuoteSubmission<I, Q, B>(
  store: DraftStore<I, Q, B>,
  submit: (prefix: string, body: B, key: string) => Promise<QuoteSubmissionResponse<unknown>>,
  prefix: string,
  activityItem: string,
): (body: B) => Promise<void> {
  return useCallback(
    async (body: B) => {
      const id = store.getState().startSubmission(body);
      const started = store.getState().submission;
      const key = started.status === 'sending' ? started.key : '';
      let answer: unknown;
      try {
        answer = await submit(prefix, body, key);
      } catch (error) {
        store.getState().finishSubmission(id, {
          message: failureMessage(error),
          // The session has ended: trying again cannot work until the user logs in again.
          loggedOut: error instanceof ApiError && error.status === 401,
          // No answer at all, or one that is not the API's: the post may have been stored all the same.
          unanswered: !(error instanceof ApiError) || error instanceof UnreadableAnswerError,
        });
        return;
      }
      // Found by the eighteenth session's portal probe: a 201 of JSON without the reference (a proxy's, an older
      // server's) showed "Your reference: undefined. Our team has your details…". Only a reference of the API's
      // form says the team has them; anything else is an answer we cannot read, and Try again (the same key)
      // brings back the reference of a post the API did store.
      // And so is one without the server's quote, which the API always sends with the reference (decisions.md §3).
      // The rates the quote was made with are kept: other than this page's (a page loaded before the rates
      // changed), they are said beside the reference, since the team has the server's figures, which may differ
      // from those shown (found by the twentieth session's portal probe: the screen confirmed its own figures
      // whatever the answer held).
      const reference = referenceOf(answer);
      const quotedWith = rateTableVersionOf(answer);
      if (!store.getState().isReference(reference) || quotedWith === undefined) {
        store.getState().finishSubmission(id, {
          message: UNREADABLE_ANSWER_MESSAGE,
          unanswered: true,
        });
        return;
      }
      store.getState().finishSubmission(id, { reference, quotedWith });
      recordActivity(prefix, 'submit', activityItem);
    },
    [store, submit, prefix, activityItem],
  );
}

function referenceOf(answer: unknown): unknown {
  return typeof answer === 'object' && answer !== null && 'reference' in answer
    ? answer.reference
    : undefined;
}

/** The version of the rate table the server's quote was made with, if the answer holds a quote. */
function rateTableVersionOf(answer: unknown): string | undefined {
  if (typeof answer !== 'object' || answer === null || !('quote' in answer)) return undefined;
  const { quote } = answer;
  if (typeof quote !== 'object' || quote === null || !('rateTableVersion' in quote))
    return undefined;
  return typeof quote.rateTableVersion === 'string' ? quote.rateTableVersion : undefined;
}

function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.message) return error.message;
  // Found by the eighteenth session's portal probe: a reload while the post was on its way kept "The page was
  // reloaded before the team confirmed…" (the store saves a post still on its way so), but the browser then
  // cancelled the post, and its failure, recorded as the page went, put "The connection to our server failed."
  // in its place, which the reloaded page showed.
  if (pageIsGoing()) return INTERRUPTED_MESSAGE;
  if (error instanceof DOMException && error.name === 'TimeoutError') return TIMEOUT_MESSAGE;
  return UNREACHABLE_MESSAGE;
}

/**
 * How long after `beforeunload` a failure is put down to the page going: browsers that cancel the page's requests
 * as the next page is asked for do so at once; a `beforeunload` that leaves the page where it is (a download) must
 * not colour a real failure later.
 */
const LEAVING_GRACE_MS = 1_000;

let hidden = false;
let leavingSince = Number.NEGATIVE_INFINITY;

if (typeof window !== 'undefined') {
  window.addEventListener('beforeunload', () => {
    leavingSince = Date.now();
  });
  window.addEventListener('pagehide', () => {
    hidden = true;
  });
  // Back from the back-forward cache: the page is here again.
  window.addEventListener('pageshow', () => {
    hidden = false;
    leavingSince = Number.NEGATIVE_INFINITY;
  });
}

/** Whether the page is being left (reloaded, closed, navigated away from), which cancels its requests. */
function pageIsGoing(): boolean {
  return hidden || Date.now() - leavingSince < LEAVING_GRACE_MS;
}
