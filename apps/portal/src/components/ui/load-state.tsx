import { Button, Spinner } from '@firm/ui';
import { useContext, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useParams } from 'react-router-dom';

import { MAIN_CONTENT_ID } from '@/components/layouts/app-layout';

import { SessionEndedUser } from '@/hooks/use-client';
import { useSessionCheck } from '@/hooks/use-session-check';
import { ApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/errors';

import { LogInAgainLink } from './log-in-again-link';
import { Notice } from './notice';

interface LoadStateProps {
  error: unknown;
  isLoading: boolean;
  /**
   * Whether the page shows this call's data (SWR keeps it when asking again fails, setting `error` beside it): a
   * failure then only says that what is shown could not be brought up to date.
   */
  hasData?: boolean;
  /** What is loading, for the spinner's label ('Loading articles…'). */
  label?: string;
  onRetry: () => void;
}

/**
 * What a page shows while its data is not there: a labelled spinner, or the failure with a Retry button (Log in
 * again when the session has ended, where Retry could only fail again). Renders nothing once there is data, unless
 * refreshing it fails (below).
 *
 * A call refused for want of a session (401) has the hub check the session: once the client's answer says it has
 * ended, the hub says so once, above the page (`app-root.tsx`), and this says nothing more. Found by the
 * twenty-sixth session: a session ended between two pages (a logout in another tab) left the dashboard with two
 * identical "You are not logged in" notices, one for the video and one for the articles, while the hub itself
 * went on as if logged in.
 *
 * SWR keeps a key's last error while it asks again, and two pages share a key (the dashboard's articles and the
 * information hub's topics are one call): a failure met on one page showed on the other, with Retry, while that
 * page's own request was on its way, then gave way to the data. An error that was there before this page drew
 * (`older`) is not shown while a request is on its way: the spinner is. A notice on screen stays until the answer,
 * whatever asks again (Retry, SWR's own retries of a failure, the window regaining focus), so a focused Retry
 * never vanishes under the keyboard while the request it stands for is still out. Above data an older error is not
 * said at all: SWR says it is not loading while it asks again for data it has (and asks only a frame after the page
 * draws), so a refresh failed on the dashboard was said at once on the information hub, while the hub's own request
 * was still out (found in review). The page's own request says its failure, if it fails.
 *
 * A failure to refresh data that is on screen (SWR asking again on focus, on reconnecting, or by Retry) leaves that
 * data in place: it is said politely (a status, not an alert), with Retry, as what is shown being possibly out of
 * date, not as a failure of the page; nothing is said while the session is checked. Before, the page's full failure
 * notice, announced as an alert, stood above content that was still there and still usable.
 */
export function LoadState({
  error,
  isLoading,
  hasData = false,
  label = 'Loading…',
  onRetry,
}: LoadStateProps) {
  const { client: prefix } = useParams();
  // Pressed, or holding keyboard focus (kept through the window losing focus): where focus goes once it is gone.
  const retryHadFocus = useRef(false);
  const hubSaysEnded = useContext(SessionEndedUser) !== null;
  const refused = error instanceof ApiError && error.status === 401 && prefix !== undefined;
  const loggedIn = useSessionCheck(refused && !hubSaysEnded ? prefix : undefined, error);

  // The error SWR had for the key when this page drew (met on another page, or on an earlier visit), and whether
  // the page has drawn: SWR starts its request only after the first render, which still says it is not loading,
  // from its layout effect, as this one; the render after both is the first one painted.
  const [older] = useState(() => error);
  const [drawn, setDrawn] = useState(false);
  useLayoutEffect(() => setDrawn(true), []);
  // The error whose notice is on screen: it stays until the answer.
  const [shown, setShown] = useState<unknown>(undefined);
  const showError =
    Boolean(error) && (error === shown || error !== older || (!hasData && drawn && !isLoading));
  if (showError && shown !== error) setShown(error);

  // Retry disappears once the data is there (this notice is emptied or unmounted): give its keyboard focus to
  // the main area, where the content now is, rather than letting it fall to the document.
  const settled = !error && !isLoading;
  useEffect(() => {
    if (settled) focusMainIfDropped(retryHadFocus);
  }, [settled]);
  useEffect(() => () => focusMainIfDropped(retryHadFocus), []);

  if (refused && hubSaysEnded) return null;
  // The check is brief (one small call): a spinner meanwhile, rather than a notice the hub's may replace; nothing
  // above data that is shown.
  if (refused && loggedIn === undefined) return hasData ? null : <Spinner label={label} />;
  if (error && !showError) return hasData ? null : <Spinner label={label} />;
  if (error) {
    // Logged in again meanwhile (in another tab): Retry can work now.
    const action =
      refused && loggedIn === false ? (
        <LogInAgainLink prefix={prefix} />
      ) : (
        <Button
          type="button"
          variant="secondary"
          onFocus={() => {
            retryHadFocus.current = true;
          }}
          onBlur={(event) => {
            // To another control: the user has moved on. (To nothing: the window lost focus, or the button is
            // going away.)
            if (event.relatedTarget !== null) retryHadFocus.current = false;
          }}
          onClick={() => {
            retryHadFocus.current = true;
            onRetry();
          }}
        >
          Retry
        </Button>
      );
    if (hasData) {
      return (
        <Notice action={action}>
          {STALE_DATA_MESSAGE} {messageOf(error)}
        </Notice>
      );
    }
    return (
      <Notice tone="failure" action={action}>
        {messageOf(error)}
      </Notice>
    );
  }
  if (isLoading) return <Spinner label={label} />;
  return null;
}

/** Said, before the failure's own message, when data on screen could not be refreshed. */
export const STALE_DATA_MESSAGE = 'What is shown could not be brought up to date.';

function focusMainIfDropped(retryHadFocus: { current: boolean }) {
  if (!retryHadFocus.current) return;
  retryHadFocus.current = false;
  const active = document.activeElement;
  if (active === null || active === document.body) {
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }
}
