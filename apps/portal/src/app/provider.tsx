import { defaultTheme, GlobalStyle } from '@firm/ui';
import type { ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { SWRConfig } from 'swr';

import { ApiError } from '@/lib/api-client';

/** Server data lives in SWR; a 4xx is an answer, not a glitch, so it is not retried. */
const swrOptions = {
  shouldRetryOnError: (error: unknown) => !(error instanceof ApiError && error.status < 500),
  errorRetryCount: 2,
};

/** The firm's theme until a client's own is known (404 and error pages outside a client use it). */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <SWRConfig value={swrOptions}>
      <ThemeProvider theme={defaultTheme}>
        <GlobalStyle />
        {children}
      </ThemeProvider>
    </SWRConfig>
  );
}
