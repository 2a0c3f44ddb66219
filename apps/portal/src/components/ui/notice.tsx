import type { ReactNode } from 'react';
import styled from 'styled-components';

interface NoticeProps {
  children: ReactNode;
  /** `failure` is announced at once (role="alert"); `info` politely (role="status"). */
  tone?: 'failure' | 'info' | 'success';
  action?: ReactNode;
  /** `false` when the page announces the same news itself (a status region of its own): not read twice. */
  announce?: boolean;
}

/** A message box: errors, confirmations, empty states. */
export function Notice({ children, tone = 'info', action, announce = true }: NoticeProps) {
  const role = announce ? (tone === 'failure' ? 'alert' : 'status') : undefined;
  return (
    <Box role={role} data-tone={tone}>
      <div>{children}</div>
      {action ? <div>{action}</div> : null}
    </Box>
  );
}

const Box = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
  margin: ${({ theme }) => theme.space.md} 0;
  padding: ${({ theme }) => theme.space.md};
  border-radius: ${({ theme }) => theme.radius.md};
  border: 1px solid ${({ theme }) => theme.color.border};
  background: ${({ theme }) => theme.color.surface};

  &[data-tone='failure'] {
    border-color: ${({ theme }) => theme.color.failure};
    background: ${({ theme }) => theme.color.failureSurface};
    color: ${({ theme }) => theme.color.failure};
  }

  &[data-tone='success'] {
    border-color: ${({ theme }) => theme.color.success};
    color: ${({ theme }) => theme.color.success};
  }
`;
