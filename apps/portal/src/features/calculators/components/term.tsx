import { Tooltip } from '@firm/ui';
import type { ReactNode } from 'react';
import { styled } from 'styled-components';

export interface TermProps {
  /** What the term means, in plain words. */
  explanation: string;
  children: ReactNode;
}

/** A term of the trade (GDV, IPT…) that explains itself on hover and focus, with no delay. */
export function Term({ explanation, children }: TermProps) {
  return (
    <Tooltip content={explanation}>
      <TermButton type="button">{children}</TermButton>
    </Tooltip>
  );
}

const TermButton = styled.button`
  padding: 0;
  border: 0;
  border-bottom: 1px dotted currentColor;
  background: none;
  color: inherit;
  font: inherit;
  cursor: help;

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
  }
`;
