import useSWR from 'swr';

import { paths } from '@/config/paths';
import { isContent } from '@/lib/answer-shapes';
import { apiFetch } from '@/lib/api-client';
import type { SearchResult } from '@/types/api';

/** GET /api/{client}/content?search=…: the same shape as the content, filtered by the server. */
export function searchContent(prefix: string, text: string): Promise<SearchResult> {
  return apiFetch<SearchResult>(paths.api.content(prefix, text), { shape: isContent });
}

/** No request while the text is empty. */
export function useSearchContent(prefix: string, text: string) {
  return useSWR(text === '' ? null : paths.api.content(prefix, text), () =>
    searchContent(prefix, text),
  );
}
