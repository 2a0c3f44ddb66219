import { REQUEST_TIMEOUT_MS } from '@/lib/api-client';

/** How long a calculator submission may take before the screen offers to try again: as long as any call. */
export const SUBMIT_TIMEOUT_MS = REQUEST_TIMEOUT_MS;
