import { useContext, useEffect, useRef } from 'react';
import type { ReactNode } from 'react';
import { Link, useRouteLoaderData } from 'react-router-dom';
import styled from 'styled-components';

import { env } from '@/config/env';
import { paths } from '@/config/paths';
import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { documentTitleOf } from '@/lib/document-title';
import { mailtoHref } from '@/lib/links';
import { InsideMainLandmark } from '@/lib/main-landmark';
import type { Client } from '@/types/api';

/**
 * Unknown client prefix or unmatched URL (spec §2). Under a known client it is not a dead end: it links to the
 * dashboard, or to the login page without a session. An unknown client has no page to link to: its way on is the
 * team, by the error page's contact-us mail link (spec §2) to the address that page uses when the client could not
 * be loaded. Found by the thirty-first session's portal probe: it had nothing to Tab to, a dead end for a keyboard
 * user.
 */
export function NotFoundRoute() {
  const client = useRouteLoaderData(CLIENT_ROUTE_ID) as Client | undefined;
  return (
    <Page>
      <title>{documentTitleOf('404 Not Found', client)}</title>
      <ArrivalHeading>404 Not Found</ArrivalHeading>
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
      ) : (
        <p>
          If you were given this address, please{' '}
          <a href={mailtoHref(env.fallbackContactEmail)}>contact us</a>.
        </p>
      )}
    </Page>
  );
}

/** The error pages' frame: the page's main landmark, or a block when drawn inside the hub's main. */
export function Page({ children }: { children: ReactNode }) {
  const insideMain = useContext(InsideMainLandmark);
  return <PageFrame as={insideMain ? 'div' : 'main'}>{children}</PageFrame>;
}

/**
 * The heading of the 404 and error pages, which takes keyboard focus when they come with nothing focused: they
 * replace the whole page (the hub's layout with it), so the link or button that had focus is gone and focus fell
 * to the document, where the next Tab started again from the top and a screen reader heard nothing of the page.
 * Every hub page takes focus to its main area on a new page (`hooks/use-scroll-to-top.ts`, which wins inside the
 * hub, as its effect runs after this one); the start failure in `main.tsx` focuses its heading the same way. Focus
 * the user has put somewhere is never taken. A known fault: the "Oops!" page reached by a navigation left focus on
 * the document.
 */
export function ArrivalHeading({ children }: { children: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    const active = document.activeElement;
    if (active === null || active === document.body)
      heading.current?.focus({ preventScroll: true });
  }, []);
  return (
    <h1 ref={heading} tabIndex={-1}>
      {children}
    </h1>
  );
}

const PageFrame = styled.main`
  max-width: 40rem;
  margin: 0 auto;
  padding: ${({ theme }) => `${theme.space.xxl} ${theme.space.md}`};

  h1 {
    margin-top: 0;
  }

  /* Focused by script only (a target, not a control), as the hub's main area is. */
  h1:focus {
    outline: none;
  }
`;
