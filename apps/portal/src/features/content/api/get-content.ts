import useSWR from 'swr';

import { paths } from '@/config/paths';
import { isContent } from '@/lib/answer-shapes';
import { apiFetch } from '@/lib/api-client';
import { useBootFallback } from '@/lib/boot';
import type { Content } from '@/types/api';

/** GET /api/{client}/content: case studies, insights and the information hub's topics. */
export function getContent(prefix: string, signal?: AbortSignal): Promise<Content> {
  return apiFetch<Content>(paths.api.content(prefix), { shape: isContent, signal });
}

export function useContent(prefix: string) {
  const key = paths.api.content(prefix);
  return useSWR(key, () => getContent(prefix), useBootFallback<Content>(key));
}
