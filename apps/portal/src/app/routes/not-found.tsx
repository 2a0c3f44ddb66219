import { useContext } from 'react';
import type { ReactNode } from 'react';
import { Link, useRouteLoaderData } from 'react-router-dom';
import styled from 'styled-components';

import { documentTitleOf } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { InsideMainLandmark } from '@/lib/main-landmark';
import type { Client } from '@/types/api';

/**
 * Unknown client prefix or unmatched URL (spec §2). Under a known client it is not a dead end: it links to the
 * dashboard, or to the login page without a session. An unknown client has nothing to link to.
 */
export function NotFoundRoute() {
  const client = useRouteLoaderData(CLIENT_ROUTE_ID) as Client | undefined;
  return (
    <Page>
      <title>{documentTitleOf('404 Not Found', client)}</title>
      <h1>404 Not Found</h1>
      <p>
        There is no page at this address. Check the link you followed, or type the address again.
      </p>
      {client ? (
        <p>
          {client.logged_in ? (
            <Link to={paths.app.dashboard(client.prefix)}>Go to the dashboard</Link>
          ) : (
            <Link to={paths.app.login(client.prefix)}>Go to the login page</Link>
          )}
        </p>
      ) : null}
    </Page>
  );
}

/** The error pages' frame: the page's main landmark, or a block when drawn inside the hub's main. */
export function Page({ children }: { children: ReactNode }) {
  const insideMain = useContext(InsideMainLandmark);
  return <PageFrame as={insideMain ? 'div' : 'main'}>{children}</PageFrame>;
}

const PageFrame = styled.main`
  max-width: 40rem;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xxl} ${theme.space.md}`};

  h1 {
    margin-top: 0;
  }
`;
