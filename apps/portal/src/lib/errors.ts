import { ApiError, UNREADABLE_ANSWER_MESSAGE } from './api-client';

/** What a failure says when an answer came that is not the API's (an `UnreadableAnswerError`). */
export { UNREADABLE_ANSWER_MESSAGE };

/** What a failure says when the server could not be reached (fetch's own words differ by browser). */
export const UNREACHABLE_MESSAGE = 'The connection to our server failed.';

/** What a failure says when the server took too long. */
export const TIMEOUT_MESSAGE = 'Our server took too long to answer.';

/**
 * Said after a sending whose outcome is unknown (no answer in time, or one that could not be read): the request may
 * have arrived, and sending it again under the same key stores and mails it once.
 */
export const UNCONFIRMED_NOTE =
  'Please try again: if your request did reach our team, they will not get it twice.';

/**
 * The message to show for a failure: the API's (already per spec §8), or ours for an answer that is not the API's;
 * for no answer at all, our own words rather than the browser's ('Failed to fetch', 'Load failed', 'NetworkError
 * when attempting to fetch resource.'); a message we wrote ourselves (a plain `Error`); else the fallback. Never
 * the text of an unexpected error.
 */
export function messageOf(error: unknown, fallback = 'An error occurred'): string {
  if (error instanceof ApiError) return error.message.trim() !== '' ? error.message : fallback;
  if (error instanceof DOMException && error.name === 'TimeoutError') return TIMEOUT_MESSAGE;
  // fetch rejects with a TypeError when there is no answer, in every browser.
  if (error instanceof TypeError) return UNREACHABLE_MESSAGE;
  if (error instanceof Error && error.constructor === Error && error.message.trim() !== '') {
    return error.message;
  }
  return fallback;
}
