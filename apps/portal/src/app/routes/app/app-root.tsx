import { useEffect, useRef, useState } from 'react';
import { Navigate, Outlet, useLocation, useMatches } from 'react-router-dom';
import { SWRConfig } from 'swr';

import { AppLayout } from '@/components/layouts/app-layout';
import { LogInAgainLink } from '@/components/ui/log-in-again-link';
import { Notice } from '@/components/ui/notice';
import { paths, routes } from '@/config/paths';
import { SessionEndedUser, useClient } from '@/hooks/use-client';
import { useDisableContextMenu } from '@/hooks/use-disable-context-menu';
import { pageKey, useScrollToTopOnPathChange } from '@/hooks/use-scroll-to-top';
import { recordViewWhenIdle } from '@/lib/activity';
import { ApiError } from '@/lib/api-client';
import { forgetOthersTabData } from '@/lib/tab-storage';
import type { Client } from '@/types/api';

import { pageOf } from '../../route-handle';

/** Server data lives in SWR; a 4xx is an answer, not a glitch, so it is not retried. */
const swrOptions = {
  shouldRetryOnError: (error: unknown) => !(error instanceof ApiError && error.status < 500),
  errorRetryCount: 2,
};

/** What the hub says when the session has ended while it was open. */
export const SESSION_ENDED_MESSAGE =
  'Your session has ended. This page and anything you typed stay here, but nothing more can be sent or loaded until you log in again.';

/**
 * The logged-in hub around every page: layout, scroll to top, no right-click menu, and a view activity for every
 * page.
 */
export function Component() {
  return (
    <SWRConfig value={swrOptions}>
      <Hub />
    </SWRConfig>
  );
}

function Hub() {
  const { prefix, client } = useClient();
  const { pathname, search } = useLocation();
  const page = pageOf(useMatches());
  const main = useRef<HTMLElement>(null);

  useScrollToTopOnPathChange(pageKey(pathname, search, routes.article), main);
  // No right-click menu on the hub (spec §1), but on its fields; the login page keeps it.
  useDisableContextMenu();

  const loggedIn = client.logged_in;
  useEffect(() => {
    if (loggedIn && page) recordViewWhenIdle(prefix, page);
  }, [prefix, page, loggedIn]);
  // What the tab keeps for someone else (a user whose session ran out, another client's) goes as the hub opens.
  const email = loggedIn ? client.email : null;
  useEffect(() => {
    if (email !== null) forgetOthersTabData(`${prefix}/${email}`);
  }, [prefix, email]);

  // The user the hub was opened for (the route's loader lets no one in without a session), kept when the session
  // ends while the hub is open (SWR re-reads the client when the window regains focus).
  const [lastUser, setLastUser] = useState<Client | null>(loggedIn ? client : null);
  if (loggedIn && client !== lastUser) setLastUser(client);
  const user = loggedIn ? client : lastUser;

  // No session to have ended here: the login page, as the route's loader would.
  if (user === null || user.prefix !== prefix) {
    return <Navigate to={paths.app.login(prefix)} replace />;
  }

  // Found by the twenty-third session's portal probe: a session that ended while a form was open (the window
  // focused again after an idle timeout) replaced the page with the login page at once, without a word, the
  // history entry with it, and on an open client that login forgets the tab's drafts: all that was typed was
  // gone. The page stays as it is, with its drafts (its pages go on with this user: `useClient`), and says
  // that the session has ended, with "Log in again" (which comes back here) and, on an open client, the advice
  // to copy anything first.
  const ended = !loggedIn;
  return (
    <SessionEndedUser.Provider value={ended ? user : null}>
      <AppLayout
        client={user}
        showFooterBanner={pathname !== paths.app.dueDiligence(prefix)}
        mainRef={main}
        notice={
          ended ? (
            <Notice tone="failure" action={<LogInAgainLink prefix={prefix} draft />}>
              {SESSION_ENDED_MESSAGE}
            </Notice>
          ) : null
        }
      >
        <Outlet />
      </AppLayout>
    </SessionEndedUser.Provider>
  );
}
