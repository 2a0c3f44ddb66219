import useSWR from 'swr';

import { paths } from '@/config/paths';
import { isArticle } from '@/lib/content-shapes';
import { apiFetch } from '@/lib/api-client';
import { useBootFallback } from '@/lib/boot-fallback';
import type { Article, ContentType } from '@/types/api';

/** GET /api/{client}/article?id=…&type=…; 404 when unknown. */
export function getArticle(
  prefix: string,
  item: { id: string; type: ContentType },
  signal?: AbortSignal,
): Promise<Article> {
  return apiFetch<Article>(paths.api.article(prefix, item), { shape: isArticle, signal });
}

/** `item` null: nothing to fetch (a link without id or type). */
export function useArticle(prefix: string, item: { id: string; type: ContentType } | null) {
  const key = item ? paths.api.article(prefix, item) : null;
  return useSWR(
    key,
    () => (item ? getArticle(prefix, item) : Promise.reject(new Error('No article'))),
    useBootFallback<Article>(key),
  );
}
