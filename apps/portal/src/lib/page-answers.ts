import { mutate, preload } from 'swr';

import { REQUEST_TIMEOUT_MS } from './api-client';

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
 * search from the results page) draws it at once. One that fails, or is still on its way at `waitMs`, is handed
 * to SWR as that call (`preload`), which the page takes up rather than asking again: it shows its failure with
 * Retry at once, or its spinner until the answer comes (found by the twenty-fifth session's probe: a late answer
 * was given up at the wait and asked for anew, coming twice as late). A call still on its way is given up after
 * `REQUEST_TIMEOUT_MS`, as any call of the portal is. A navigation given up (`signal`) while the loader waits gives
 * up its calls and hands over nothing. Gives the answers it handed over, by key. (SWR: this module belongs to the
 * hub, never to the login page.)
 */
export async function fetchPageAnswers(
  calls: readonly PageCall[],
  signal: AbortSignal,
  waitMs = PAGE_ANSWERS_WAIT_MS,
): Promise<ReadonlyMap<string, unknown>> {
  const served = new Map<string, unknown>();
  const missing = calls.filter(([key]) => bootAnswer(key) === undefined);
  if (missing.length === 0 || signal.aborted) return served;
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal.reason);
  signal.addEventListener('abort', onAbort, { once: true });
  const limit = setTimeout(
    () => stop.abort(new DOMException('The server did not answer in time.', 'TimeoutError')),
    REQUEST_TIMEOUT_MS,
  );
  const pending = missing.map(([key, fetch]) => {
    const answer = fetch(stop.signal);
    const call = {
      key,
      answer,
      outcome: undefined as PromiseSettledResult<unknown> | undefined,
    };
    const settled = answer.then(
      (value) => {
        call.outcome = { status: 'fulfilled', value };
      },
      (reason: unknown) => {
        call.outcome = { status: 'rejected', reason };
      },
    );
    return Object.assign(call, { settled });
  });
  void Promise.all(pending.map((call) => call.settled)).then(() => clearTimeout(limit));
  let wait: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      Promise.all(pending.map((call) => call.settled)),
      new Promise((resolve) => (wait = setTimeout(resolve, waitMs))),
    ]);
  } finally {
    clearTimeout(wait);
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) return served;
  for (const call of pending) {
    if (call.outcome?.status === 'fulfilled') served.set(call.key, call.outcome.value);
    else preload(call.key, () => call.answer);
  }
  if (served.size > 0) servePageAnswers(served);
  await Promise.all([...served].map(([key, answer]) => mutate(key, answer, { revalidate: false })));
  return served;
}
