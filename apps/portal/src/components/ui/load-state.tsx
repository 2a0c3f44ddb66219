import { Button, Spinner } from '@firm/ui';
import { useContext, useEffect, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';
import { useSWRConfig } from 'swr';

import { MAIN_CONTENT_ID } from '@/components/layouts/app-layout';

import { paths } from '@/config/paths';
import { SessionEndedUser } from '@/hooks/use-client';
import { getClient } from '@/hooks/use-loaded-client';
import { ApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/errors';

import { LogInAgainLink } from './log-in-again-link';
import { Notice } from './notice';

interface LoadStateProps {
  error: unknown;
  isLoading: boolean;
  /** What is loading, for the spinner's label ('Loading articles…'). */
  label?: string;
  onRetry: () => void;
}

/**
 * What a page shows while its data is not there: a labelled spinner, or the failure with a Retry button (Log in
 * again when the session has ended, where Retry could only fail again). Renders nothing once there is data.
 *
 * A call refused for want of a session (401) has the hub check the session: once the client's answer says it has
 * ended, the hub says so once, above the page (`app-root.tsx`), and this says nothing more. Found by the
 * twenty-sixth session: a session ended between two pages (a logout in another tab) left the dashboard with two
 * identical "You are not logged in" notices, one for the video and one for the articles, while the hub itself
 * went on as if logged in.
 */
export function LoadState({ error, isLoading, label = 'Loading…', onRetry }: LoadStateProps) {
  const { client: prefix } = useParams();
  const retried = useRef(false);
  const hubSaysEnded = useContext(SessionEndedUser) !== null;
  const refused = error instanceof ApiError && error.status === 401 && prefix !== undefined;
  const loggedIn = useSessionCheck(refused && !hubSaysEnded ? prefix : undefined, error);

  // Retry disappears once the data is there (this notice is emptied or unmounted): give its keyboard focus to
  // the main area, where the content now is, rather than letting it fall to the document.
  const settled = !error && !isLoading;
  useEffect(() => {
    if (settled) focusMainIfDropped(retried);
  }, [settled]);
  useEffect(() => () => focusMainIfDropped(retried), []);

  if (refused && hubSaysEnded) return null;
  // The check is brief (one small call): a spinner meanwhile, rather than a notice the hub's may replace.
  if (refused && loggedIn === undefined) return <Spinner label={label} />;
  if (error) {
    // Logged in again meanwhile (in another tab): Retry can work now.
    const loggedOut = refused && loggedIn === false;
    return (
      <Notice
        tone="failure"
        action={
          loggedOut ? (
            <LogInAgainLink prefix={prefix} />
          ) : (
            <Button
              type="button"
              variant="secondary"
              onClick={() => {
                retried.current = true;
                onRetry();
              }}
            >
              Retry
            </Button>
          )
        }
      >
        {messageOf(error)}
      </Notice>
    );
  }
  if (isLoading) return <Spinner label={label} />;
  return null;
}

/** Calls refused together (the dashboard's two) share one check of the session, per client. */
const checks = new Map<string, Promise<boolean>>();

function checkSession(
  prefix: string,
  cache: (client: Awaited<ReturnType<typeof getClient>>) => void,
): Promise<boolean> {
  let check = checks.get(prefix);
  if (check === undefined) {
    check = getClient(prefix).then(
      (client) => {
        // The hub's client data: when it says logged out, the hub says the session has ended.
        cache(client);
        return client.logged_in;
      },
      // The check itself failed: the refusal stands, with Log in again.
      () => false,
    );
    void check.finally(() => checks.delete(prefix));
    checks.set(prefix, check);
  }
  return check;
}

/**
 * Whether `prefix`'s session is live, checked once for `error` (a 401): `undefined` while checking, and when there
 * is nothing to check.
 */
function useSessionCheck(prefix: string | undefined, error: unknown): boolean | undefined {
  const { mutate } = useSWRConfig();
  const [result, setResult] = useState<{ error: unknown; loggedIn: boolean } | null>(null);
  useEffect(() => {
    if (prefix === undefined) return;
    let live = true;
    void checkSession(prefix, (client) => {
      void mutate(paths.api.client(prefix), client, { revalidate: false });
    }).then((loggedIn) => {
      if (live) setResult({ error, loggedIn });
    });
    return () => {
      live = false;
    };
  }, [prefix, error, mutate]);
  return prefix !== undefined && result !== null && result.error === error
    ? result.loggedIn
    : undefined;
}

function focusMainIfDropped(retried: { current: boolean }) {
  if (!retried.current) return;
  retried.current = false;
  const active = document.activeElement;
  if (active === null || active === document.body) {
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }
}
