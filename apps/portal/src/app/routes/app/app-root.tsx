import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { AppLayout } from '@/components/layouts/app-layout';
import { paths } from '@/config/paths';
import { useClient } from '@/hooks/use-client';
import { useScrollToTopOnPathChange } from '@/hooks/use-scroll-to-top';
import { recordViewWhenIdle } from '@/lib/activity';
import { ApiError } from '@/lib/api-client';

import { pageOf } from '../../route-handle';

/** Server data lives in SWR; a 4xx is an answer, not a glitch, so it is not retried. */
const swrOptions = {
  shouldRetryOnError: (error: unknown) => !(error instanceof ApiError && error.status < 500),
  errorRetryCount: 2,
};

/** The logged-in hub around every page: layout, scroll to top, and a view activity for every page. */
export function Component() {
  return (
    <SWRConfig value={swrOptions}>
      <Hub />
    </SWRConfig>
  );
}

function Hub() {
  const { prefix, client } = useClient();
  const { pathname } = useLocation();
  const page = pageOf(useMatches());
  const main = useRef<HTMLElement>(null);

  useScrollToTopOnPathChange(pathname, main);

  const loggedIn = client.logged_in;
  useEffect(() => {
    if (loggedIn && page) recordViewWhenIdle(prefix, page);
  }, [prefix, page, loggedIn]);

  // The session can end while the hub is open (SWR re-reads the client on focus).
  if (!loggedIn) return <Navigate to={paths.app.login(prefix)} replace />;

  return (
    <AppLayout
      client={client}
      showFooterBanner={pathname !== paths.app.dueDiligence(prefix)}
      mainRef={main}
    >
      <Outlet />
    </AppLayout>
  );
}
