import { RATE_TABLE_VERSION } from '@firm/pricing';
import { Button, Spinner } from '@firm/ui';
import { useRef } from 'react';
import type { ReactNode } from 'react';
import { useParams } from 'react-router-dom';
import { styled } from 'styled-components';

import { LogInAgainLink } from '@/components/ui/log-in-again-link';

import type { Submission } from '../stores/create-draft-store';

/** Said beside the reference when the team's quote was made with other rates than the page's. */
export const RATES_CHANGED_MESSAGE =
  'Our rates have changed since this page was loaded, so the figures our team has may differ from those ' +
  'shown here. Load the page again to see the new figures.';

export interface SubmissionStatusProps {
  submission: Submission<unknown>;
  onRetry: () => void;
}

/** How the posting of the estimate to the team went: on its way, its reference, or a retryable failure. */
export function SubmissionStatus({ submission, onRetry }: SubmissionStatusProps) {
  const { client: prefix } = useParams();
  const status = useRef<HTMLDivElement>(null);

  const retry = () => {
    // Try again is replaced while the post is on its way: keep focus on the status that replaces it, so the
    // keyboard stays here (one Tab to the next Try again or Log in again) instead of falling to the page.
    status.current?.focus({ preventScroll: true });
    onRetry();
  };

  return (
    // A status region (polite, read whole): the sending, the reference, a failure are told as they come. Always
    // in the page, empty while there is nothing to tell.
    <Status ref={status} tabIndex={-1} role="status" aria-atomic="true">
      {content()}
    </Status>
  );

  function content(): ReactNode {
    switch (submission.status) {
      case 'idle':
        return null;
      case 'sending':
        return (
          <Sending>
            <Spinner size="sm" decorative />
            Sending your details to our team…
          </Sending>
        );
      case 'sent':
        return (
          <Receipt data-state="sent">
            <Reference>{`Your reference: ${submission.reference}`}</Reference>
            <p>
              Our team has your details and will be in touch. Please quote this reference if you
              contact us.
            </p>
            {submission.quotedWith !== undefined && submission.quotedWith !== RATE_TABLE_VERSION ? (
              <p>{RATES_CHANGED_MESSAGE}</p>
            ) : null}
          </Receipt>
        );
      case 'failed':
        return (
          <FailureNotice data-state="failed">
            {submission.unanswered === true ? (
              // No answer came: the team may have the details after all. Try again (or Calculate) sends them
              // under the same key, so they are not stored or mailed twice.
              <>
                <FailureTitle>
                  We could not confirm that your details reached our team.
                </FailureTitle>
                <p>
                  Your estimate is still shown above. {submission.message} Please try again: if the
                  team did receive them, they will not get them twice.
                </p>
              </>
            ) : (
              <>
                <FailureTitle>Your details did not reach our team.</FailureTitle>
                <p>
                  Your estimate is still shown above, but the team has not received it.{' '}
                  {submission.message}
                </p>
              </>
            )}
            {submission.loggedOut === true && prefix !== undefined ? (
              // Logged out: Try again cannot work. The estimate is kept in this tab for when they are back,
              // and the login page brings them back here.
              <LogInAgainLink prefix={prefix} draft />
            ) : (
              <Button type="button" variant="secondary" onClick={retry}>
                Try again
              </Button>
            )}
          </FailureNotice>
        );
    }
  }
}

/** Holds whichever state is shown, so that focus put on it survives the change of state. */
const Status = styled.div`
  &:not(:empty) {
    margin-top: ${({ theme }) => theme.space.lg};
  }

  &:focus {
    outline: none;
  }
`;

const Sending = styled.p`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  margin: 0;
  color: ${({ theme }) => theme.color.muted};
`;

const Receipt = styled.div`
  padding: ${({ theme }) => theme.space.lg};
  border-left: 4px solid ${({ theme }) => theme.color.success};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.color.background};

  p {
    margin: ${({ theme }) => theme.space.xs} 0 0;
  }
`;

const Reference = styled.p`
  && {
    margin: 0;
  }
  font-size: ${({ theme }) => theme.fontSize.lg};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  color: ${({ theme }) => theme.color.success};
`;

const FailureNotice = styled.div`
  display: grid;
  justify-items: start;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.lg};
  border-left: 4px solid ${({ theme }) => theme.color.failure};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.color.failureSurface};
  color: ${({ theme }) => theme.color.text};

  p {
    margin: 0;
  }
`;

const FailureTitle = styled.p`
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  color: ${({ theme }) => theme.color.failure};
`;
