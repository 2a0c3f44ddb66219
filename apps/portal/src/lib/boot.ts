import { useState } from 'react';

/**
 * The first page's answers, written into index.html by the API (apps/api/src/services/portal-page.ts): the answers
 * of the GET calls the page opens with (GET /api/{client} always; the dashboard's video and content, …), keyed by
 * their API path, which is also their SWR key. With them the page draws at once, without a spinner or a layout
 * shift while it waits.
 *
 * They describe the moment the page was served, so they hold only for that first page: the first navigation or
 * the first call that changes something (logging in or out) ends them, and from then on everything is asked for.
 */

const ELEMENT_ID = 'portal-boot';

let answers: Map<string, unknown> | null = null;
let read = false;

function load(): Map<string, unknown> | null {
  if (read) return answers;
  read = true;
  const element = typeof document === 'undefined' ? null : document.getElementById(ELEMENT_ID);
  if (!element?.textContent) return null;
  try {
    const parsed = JSON.parse(element.textContent) as { answers?: unknown };
    if (typeof parsed.answers === 'object' && parsed.answers !== null) {
      answers = new Map(Object.entries(parsed.answers));
    }
  } catch {
    // A page without usable answers asks for everything: slower, never wrong.
    answers = null;
  }
  return answers;
}

/** The answer the page was served with for this API path (as built by `paths.api`), while the first page lasts. */
export function bootAnswer<T>(path: string): T | undefined {
  return load()?.get(path) as T | undefined;
}

/** Ends the first page's answers: called on the first navigation and on the first call that changes state. */
export function endBoot(): void {
  read = true;
  answers = null;
}

/**
 * SWR options that draw a page from the answer it was served with: that answer as the data, and no request on
 * mount. The answer is taken when the component first renders and kept for that key, so a later render (after the
 * first page has ended) does not lose it; SWR's own cache takes over at its next revalidation (focus, reconnect,
 * `mutate`). For any other key, or with no served answer, SWR behaves as usual.
 */
export function useBootFallback<T>(
  key: string | null,
): { fallbackData: T; revalidateOnMount: false } | Record<string, never> {
  const [served] = useState(() => {
    const data = key === null ? undefined : bootAnswer<T>(key);
    return data === undefined ? undefined : { key, data };
  });
  return served !== undefined && served.key === key
    ? { fallbackData: served.data, revalidateOnMount: false }
    : {};
}

/** For tests: forget what was read, so the next call reads the document again. */
export function resetBootForTests(): void {
  read = false;
  answers = null;
}
