import { Button, Spinner } from '@firm/ui';
import { useEffect, useRef } from 'react';
import { useParams } from 'react-router-dom';

import { MAIN_CONTENT_ID } from '@/components/layouts/app-layout';

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
 */
export function LoadState({ error, isLoading, label = 'Loading…', onRetry }: LoadStateProps) {
  const { client: prefix } = useParams();
  const retried = useRef(false);

  // Retry disappears once the data is there (this notice is emptied or unmounted): give its keyboard focus to
  // the main area, where the content now is, rather than letting it fall to the document.
  const settled = !error && !isLoading;
  useEffect(() => {
    if (settled) focusMainIfDropped(retried);
  }, [settled]);
  useEffect(() => () => focusMainIfDropped(retried), []);

  if (error) {
    const loggedOut = error instanceof ApiError && error.status === 401 && prefix !== undefined;
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

function focusMainIfDropped(retried: { current: boolean }) {
  if (!retried.current) return;
  retried.current = false;
  const active = document.activeElement;
  if (active === null || active === document.body) {
    document.getElementById(MAIN_CONTENT_ID)?.focus({ preventScroll: true });
  }
}
