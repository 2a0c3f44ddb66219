import { useState } from 'react';

import { bootAnswer } from './boot-data';

/**
 * (Apart from `boot.ts`: only the hub's pages use it, and the login page does not load it.)
 *
 * SWR options that draw a page from the answer it was served with: that answer as the data, and no request on
 * mount. The answer is taken when the component first renders and kept for that key, so a later render (after the
 * first page has ended) does not lose it; SWR's own cache takes over at its next revalidation (focus, reconnect,
 * `mutate`). A key the page comes to while it shows (a new search from the results page), served by that
 * navigation's loader, is drawn from its answer with no request either. For any other key, or with no served
 * answer, SWR behaves as usual.
 */
export function useBootFallback<T>(
  key: string | null,
):
  { fallbackData: T; revalidateOnMount: false; revalidateIfStale?: false } | Record<string, never> {
  const [served] = useState(() => {
    const data = key === null ? undefined : bootAnswer<T>(key);
    return data === undefined ? undefined : { key, data };
  });
  const now = key === null || served?.key === key ? undefined : bootAnswer<T>(key);
  if (now !== undefined) {
    // On a new key SWR reads `revalidateIfStale`, not `revalidateOnMount`.
    return { fallbackData: now, revalidateOnMount: false, revalidateIfStale: false };
  }
  return served !== undefined && served.key === key
    ? { fallbackData: served.data, revalidateOnMount: false }
    : {};
}
