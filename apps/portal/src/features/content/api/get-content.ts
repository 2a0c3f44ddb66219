import { useEffect, useState } from 'react';
import useSWR, { useSWRConfig } from 'swr';

import { paths } from '@/config/paths';
import { isContent } from '@/lib/content-shapes';
import { apiFetch } from '@/lib/api-client';
import { useBootFallback } from '@/lib/boot-fallback';
import type { Content } from '@/types/api';

/** GET /api/{client}/content: case studies, insights and the information hub's topics. */
export function getContent(prefix: string, signal?: AbortSignal): Promise<Content> {
  return apiFetch<Content>(paths.api.content(prefix), { shape: isContent, signal });
}

export function useContent(prefix: string) {
  const key = paths.api.content(prefix);
  const content = useSWR(key, () => getContent(prefix), useBootFallback<Content>(key));
  useAskAgainAfterOlderFailure(key, content.error, content.mutate);
  return content;
}

/**
 * The dashboard and the information hub share this call's key. SWR asks again, as a page opens, for a key whose
 * last call failed only when no other component uses the key at that moment, and the page being left still does:
 * the information hub opened from a dashboard whose articles had failed showed that failure, asking nothing, until
 * Retry. Asks once as the page opens, when the failure it found is still the key's answer and nothing is on its
 * way (the page shows its spinner meanwhile: `LoadState`).
 */
function useAskAgainAfterOlderFailure(key: string, error: unknown, mutate: () => Promise<unknown>) {
  const { cache } = useSWRConfig();
  const [opening] = useState(() => ({ key, error }));
  useEffect(() => {
    if (opening.error === undefined) return;
    const state = cache.get(opening.key);
    if (state?.error === opening.error && !state.isValidating) void mutate();
  }, [opening, cache, mutate]);
}
