import { Button, Spinner } from '@firm/ui';

import { messageOf } from '@/lib/errors';

import { Notice } from './notice';

interface LoadStateProps {
  error: unknown;
  isLoading: boolean;
  /** What is loading, for the spinner's label ('Loading articles…'). */
  label?: string;
  onRetry: () => void;
}

/**
 * What a page shows while its data is not there: a labelled spinner, or the failure with a Retry button.
 * Renders nothing once there is data.
 */
export function LoadState({ error, isLoading, label = 'Loading…', onRetry }: LoadStateProps) {
  if (error) {
    return (
      <Notice
        tone="failure"
        action={
          <Button type="button" variant="secondary" onClick={onRetry}>
            Retry
          </Button>
        }
      >
        {messageOf(error)}
      </Notice>
    );
  }
  if (isLoading) return <Spinner label={label} />;
  return null;
}
