import { useCallback } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';

import { recordActivity } from '@/lib/activity';
import { ApiError } from '@/lib/api-client';
import { TIMEOUT_MESSAGE, UNREACHABLE_MESSAGE } from '@/lib/errors';

import type { QuoteSubmissionResponse } from '@/types/api';

import type { DraftState } from '../stores/create-draft-store';

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
      try {
        const { reference } = await submit(prefix, body, key);
        store.getState().finishSubmission(id, { reference });
        recordActivity(prefix, 'submit', activityItem);
      } catch (error) {
        store.getState().finishSubmission(id, {
          message: failureMessage(error),
          // The session has ended: trying again cannot work until the user logs in again.
          loggedOut: error instanceof ApiError && error.status === 401,
          // No answer at all: the post may have been stored before the connection failed.
          unanswered: !(error instanceof ApiError),
        });
      }
    },
    [store, submit, prefix, activityItem],
  );
}

function failureMessage(error: unknown): string {
  if (error instanceof ApiError && error.message) return error.message;
  if (error instanceof DOMException && error.name === 'TimeoutError') return TIMEOUT_MESSAGE;
  return UNREACHABLE_MESSAGE;
}
