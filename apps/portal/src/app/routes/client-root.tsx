import { createTheme, defaultTheme, GlobalStyle } from '@firm/ui';
import type { Theme } from '@firm/ui';
import { useMemo } from 'react';
import { Outlet } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';

import { NavigationProgress } from '@/components/ui/navigation-progress';
import { useLoadedClient } from '@/hooks/use-loaded-client';
import { useSessionAcrossTabs } from '@/hooks/use-session-across-tabs';
import type { Branding } from '@/types/api';

/** A client's theme; branding the UI kit cannot read (not a hex colour) falls back to the firm's own colours. */
export function themeFor(branding: Branding): Theme {
  try {
    return createTheme({ primary: branding.primary, accent: branding.accent });
  } catch (error) {
    console.error('Invalid client branding, using the default theme', error);
    return defaultTheme;
  }
}

/** Everything under /{client}: the client's theme (the hub's layout, `app-root.tsx`, has no right-click menu). */
export function ClientRoot() {
  const { client } = useLoadedClient();
  const { primary, accent, logo_url } = client.branding;
  const theme = useMemo(() => themeFor({ primary, accent, logo_url }), [primary, accent, logo_url]);
  useSessionAcrossTabs(client);

  return (
    <ThemeProvider theme={theme}>
      <GlobalStyle />
      <NavigationProgress />
      <Outlet />
    </ThemeProvider>
  );
}
