import useSWR from 'swr';

import { paths } from '@/config/paths';
import { isVideo } from '@/lib/content-shapes';
import { ApiError, apiFetch } from '@/lib/api-client';
import { useBootFallback } from '@/lib/boot-fallback';
import type { Video } from '@/types/api';

/** GET /api/{client}/video: the dashboard video, or null when the client has none (404). */
export async function getVideo(prefix: string, signal?: AbortSignal): Promise<Video | null> {
  try {
    return await apiFetch<Video>(paths.api.video(prefix), { shape: isVideo, signal });
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export function useVideo(prefix: string) {
  const key = paths.api.video(prefix);
  return useSWR(key, () => getVideo(prefix), useBootFallback<Video | null>(key));
}
