import type { ReactNode } from 'react';
import { SWRConfig } from 'swr';

import { ApiError } from '@/lib/api-client';

/** Server data lives in SWR; a 4xx is an answer, not a glitch, so it is not retried. */
const swrOptions = {
  shouldRetryOnError: (error: unknown) => !(error instanceof ApiError && error.status < 500),
  errorRetryCount: 2,
};

export function AppProvider({ children }: { children: ReactNode }) {
  return <SWRConfig value={swrOptions}>{children}</SWRConfig>;
}
