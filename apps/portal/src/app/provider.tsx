import { defaultTheme, GlobalStyle } from '@firm/ui';
import type { ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';

/**
 * The firm's theme until a client's own is known (404 and error pages outside a client use it). SWR's settings live
 * with the hub (app-root), so that the login page does not load SWR.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <ThemeProvider theme={defaultTheme}>
      <GlobalStyle />
      {children}
    </ThemeProvider>
  );
}
