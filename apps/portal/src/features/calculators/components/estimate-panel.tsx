import type { ReactNode, Ref } from 'react';
import { styled } from 'styled-components';

import type { Submission } from '../stores/create-draft-store';

import { SubmissionStatus } from './submission-status';

export interface EstimatePanelProps {
  /** The figures, or `null` before the first Calculate. */
  children: ReactNode | null;
  /** The inputs have changed since the figures were computed. */
  stale: boolean;
  submission: Submission<unknown>;
  onRetry: () => void;
  ref?: Ref<HTMLElement>;
}

/**
 * Where the estimate appears. The region is polite-live, so the figures, the reference and a failure
 * are announced as they arrive without taking the focus away from the form.
 */
export function EstimatePanel({ children, stale, submission, onRetry, ref }: EstimatePanelProps) {
  return (
    <Panel ref={ref} aria-labelledby="estimate-heading" tabIndex={-1}>
      <h2 id="estimate-heading">Your estimate</h2>
      <Live aria-live="polite">
        {children === null ? (
          <Idle>
            Enter your project’s details and press Calculate to see an indicative estimate.
          </Idle>
        ) : (
          <>
            <Indicative>
              <strong>Indicative only.</strong> The premium an insurer offers depends on its
              underwriting of your project.
            </Indicative>
            {children}
            {stale ? (
              <Stale>
                You have changed the details since this estimate. Press Calculate to update it.
              </Stale>
            ) : null}
            <SubmissionStatus submission={submission} onRetry={onRetry} />
          </>
        )}
      </Live>
    </Panel>
  );
}

const Panel = styled.section`
  padding: ${({ theme }) => theme.space.xl};
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.color.surface};
  box-shadow: ${({ theme }) => theme.shadow.sm};

  &:focus {
    outline: none;
  }

  h2 {
    margin: 0 0 ${({ theme }) => theme.space.lg};
    font-size: ${({ theme }) => theme.fontSize.xl};
  }
`;

const Live = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
`;

const Idle = styled.p`
  margin: 0;
  color: ${({ theme }) => theme.color.muted};
`;

const Indicative = styled.p`
  margin: 0;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.color.background};
  font-size: ${({ theme }) => theme.fontSize.sm};
  color: ${({ theme }) => theme.color.text};
`;

const Stale = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.sm};
  font-weight: ${({ theme }) => theme.fontWeight.medium};
  color: ${({ theme }) => theme.color.text};
`;
