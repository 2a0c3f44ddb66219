import useSWR from 'swr';

import { paths } from '@/config/paths';
import { isContent } from '@/lib/content-shapes';
import { apiFetch } from '@/lib/api-client';
import { useBootFallback } from '@/lib/boot-fallback';
import type { SearchResult } from '@/types/api';

/** GET /api/{client}/content?search=…: the same shape as the content, filtered by the server. */
export function searchContent(
  prefix: string,
  text: string,
  signal?: AbortSignal,
): Promise<SearchResult> {
  return apiFetch<SearchResult>(paths.api.content(prefix, text), { shape: isContent, signal });
}

/**
 * No request while the text is empty. The results page's loader fetches each search before the page shows it
 * (`search-results.tsx`): what it found is drawn at once, not asked for again; a search it could not get (failed,
 * or still on its way when the page is shown) is the page's to show, with its error or when it comes, never an
 * older copy of the same search from SWR's cache alone (found by the twenty-fifth session's probe of this change).
 */
export function useSearchContent(prefix: string, text: string) {
  const key = text === '' ? null : paths.api.content(prefix, text);
  return useSWR(key, () => searchContent(prefix, text), useBootFallback<SearchResult>(key));
}
