import type { ReactNode, Ref } from 'react';
import { styled } from 'styled-components';

import { StatusMessage } from '@/components/ui/status-message';

import type { Submission } from '../stores/create-draft-store';

import { HeadlineFigure, type HeadlineFigureProps } from './headline-figure';
import { SubmissionStatus } from './submission-status';

export interface EstimatePanelProps {
  /** The figure the user came for (shown large, first), or `null` before the first Calculate. */
  headline: HeadlineFigureProps | null;
  /** The rest of the figures (how they are worked out), or `null` before the first Calculate. */
  children: ReactNode | null;
  /** The inputs have changed since the figures were computed. */
  stale: boolean;
  /** An amount field shows a typed amount it refused: the figures are for the amount last accepted. */
  amountRefused?: boolean;
  /** The team has the estimate, but the contact details have changed since they were sent. */
  contactChanged?: boolean;
  submission: Submission<unknown>;
  onRetry: () => void;
  ref?: Ref<HTMLElement>;
}

/**
 * Where the estimate appears. What changed is told to screen readers in short status messages, without taking the
 * focus away from the form: the headline figure with its label (a region of its own, hidden), and where the
 * sending of the estimate stands (the status below the figures). The figures themselves are not a live region,
 * which read out whichever numbers changed, without their labels, and the term tooltips with them.
 */
export function EstimatePanel({
  headline,
  children,
  stale,
  amountRefused = false,
  contactChanged = false,
  submission,
  onRetry,
  ref,
}: EstimatePanelProps) {
  const news =
    headline === null
      ? ''
      : amountRefused
        ? `${REFUSED_AMOUNT} Correct the highlighted amount and press Calculate to update it.`
        : stale
          ? 'This estimate is out of date: the details have changed. Press Calculate to update it.'
          : contactChanged
            ? CONTACT_CHANGED
            : `${headline.label}: ${headline.value}.`;

  return (
    <Panel ref={ref} aria-labelledby="estimate-heading" tabIndex={-1}>
      <h2 id="estimate-heading">Your estimate</h2>
      {/* Quiet as the page opens with an estimate kept from before: told once something changes. */}
      <StatusMessage quietAtFirst>{news}</StatusMessage>
      <Figures>
        {headline === null ? (
          <Idle>
            Enter your project’s details and press Calculate to see an indicative estimate.
          </Idle>
        ) : (
          <>
            <Indicative>
              <strong>Indicative only.</strong> The premium an insurer offers depends on its
              underwriting of your project.
            </Indicative>
            <HeadlineFigure {...headline} />
            {children}
            {amountRefused ? (
              <Stale>
                {REFUSED_AMOUNT} Correct the highlighted amount and press Calculate to update it.
              </Stale>
            ) : stale ? (
              <Stale>
                You have changed the details since this estimate. Press Calculate to update it.
              </Stale>
            ) : contactChanged ? (
              <Stale>{CONTACT_CHANGED}</Stale>
            ) : null}
          </>
        )}
      </Figures>
      {/* In the page from the start (empty until the first Calculate), so that its first message is read. */}
      <SubmissionStatus submission={headline === null ? IDLE : submission} onRetry={onRetry} />
    </Panel>
  );
}

const IDLE: Submission<unknown> = { status: 'idle' };

/** Said once the contact details differ from those the team was sent with this estimate. */
const CONTACT_CHANGED =
  'You have changed your contact details since they were sent: the team has the earlier ones. Press Calculate to send the new ones.';

/** Said while an amount field shows a typed amount it refused (the figures are not for it). */
const REFUSED_AMOUNT =
  'This estimate is for the amounts last accepted: a typed amount was not accepted.';

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

const Figures = styled.div`
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
