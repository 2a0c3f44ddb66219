import { paths } from '@/config/paths';
import { apiFetch } from '@/lib/api-client';
import type { ActivityAction } from '@/types/api';

/**
 * Records a page view, a submission or a search (spec §7). Fire and forget: it never throws and never blocks the
 * screen; a failure is only logged to the console (spec §8).
 */
export function recordActivity(prefix: string, action: ActivityAction, item: string): void {
  apiFetch<void>(paths.api.activity(prefix), { method: 'POST', json: { action, item } }).catch(
    (error: unknown) => {
      console.error('Could not record activity', { action, item }, error);
    },
  );
}

/**
 * Records a page view once the browser is idle (at the latest 2 s on): after the page has been drawn, so that
 * recording the view never competes with drawing it on a slow phone.
 */
export function recordViewWhenIdle(prefix: string, page: string): void {
  const record = () => recordActivity(prefix, 'view', page);
  if (typeof window !== 'undefined' && typeof window.requestIdleCallback === 'function') {
    window.requestIdleCallback(record, { timeout: 2000 });
  } else {
    setTimeout(record, 0);
  }
}
