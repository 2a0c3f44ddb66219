import { Button, Spinner } from '@firm/ui';
import { styled } from 'styled-components';

import type { Submission } from '../stores/create-draft-store';

export interface SubmissionStatusProps {
  submission: Submission<unknown>;
  onRetry: () => void;
}

/** How the posting of the estimate to the team went: on its way, its reference, or a retryable failure. */
export function SubmissionStatus({ submission, onRetry }: SubmissionStatusProps) {
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
        </Receipt>
      );
    case 'failed':
      return (
        <FailureNotice data-state="failed">
          <FailureTitle>Your details did not reach our team.</FailureTitle>
          <p>
            Your estimate is still shown above, but the team has not received it.{' '}
            {submission.message}
          </p>
          <Button type="button" variant="secondary" onClick={onRetry}>
            Try again
          </Button>
        </FailureNotice>
      );
  }
}

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
