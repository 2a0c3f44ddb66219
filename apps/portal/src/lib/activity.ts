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
