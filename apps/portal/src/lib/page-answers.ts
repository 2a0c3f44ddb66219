import { mutate } from 'swr';

import { bootAnswer, servePageAnswers } from './boot-data';

/** How long a page's loader waits for its answers before the page is shown without them, with its spinners. */
export const PAGE_ANSWERS_WAIT_MS = 4_000;

/** One GET a page opens with: its API path (its SWR key) and the call, given the signal that gives it up. */
export type PageCall = readonly [key: string, fetch: (signal: AbortSignal) => Promise<unknown>];

/**
 * A page loader's part: fetches the answers the page opens with before it is shown, so that it draws whole, as the
 * first page of a visit does from the answers it was served with, instead of moving down as each one arrives.
 * Found by the twenty-fourth session's portal probe: the dashboard reached inside the app (after logging in, by the
 * sidebar) drew its cards, then the video arrived above them and pushed the page down (a layout shift of 0.23-0.34).
 *
 * Answers the page was served with are not asked for again. Each answer that comes within `waitMs` is handed to
 * the page (`useBootFallback` in `boot.ts` reads it) and becomes SWR's data for its key, so that an older copy
 * (the information hub's articles, an earlier search) does not show instead, and a page already showing (a new
 * search from the results page) draws it at once. One that fails, or is later, is left to the page, which asks for
 * it itself and shows its spinner, or its failure with Retry. A navigation given up (`signal`) hands over nothing.
 * Gives the answers it handed over, by key. (SWR: this module belongs to the hub, never to the login page.)
 */
export async function fetchPageAnswers(
  calls: readonly PageCall[],
  signal: AbortSignal,
  waitMs = PAGE_ANSWERS_WAIT_MS,
): Promise<ReadonlyMap<string, unknown>> {
  const served = new Map<string, unknown>();
  const missing = calls.filter(([key]) => bootAnswer(key) === undefined);
  if (missing.length === 0 || signal.aborted) return served;
  const giveUp = new AbortController();
  const onAbort = () => giveUp.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(
    () => giveUp.abort(new DOMException('The page is shown without it.', 'TimeoutError')),
    waitMs,
  );
  try {
    const outcomes = await Promise.allSettled(missing.map(([, fetch]) => fetch(giveUp.signal)));
    if (signal.aborted) return served;
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') served.set(missing[index]![0], outcome.value);
    });
    if (served.size > 0) servePageAnswers(served);
    await Promise.all(
      [...served].map(([key, answer]) => mutate(key, answer, { revalidate: false })),
    );
    return served;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  }
}
