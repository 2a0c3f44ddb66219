import { styled } from 'styled-components';
import { Button } from '../button/button';

/**
 * The visible box. The native file input lies over it, transparent, so clicks, drops, keyboard focus
 * and screen readers all reach the real control.
 */
export const Picker = styled.div`
  position: relative;
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.md};
  min-height: 2.75rem;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.xs} ${theme.space.xs} ${theme.space.md}`};
  border: 1px dashed ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.color.surface};

  &:hover {
    border-color: ${({ theme }) => theme.color.primary};
  }

  &:focus-within {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 1px;
  }

  &[data-invalid] {
    border: 2px solid ${({ theme }) => theme.color.failure};
  }

  &[data-state='chosen'] {
    border-style: solid;
  }
`;

export const NativeFileInput = styled.input`
  position: absolute;
  inset: 0;
  z-index: 1;
  width: 100%;
  height: 100%;
  margin: 0;
  opacity: 0;
  cursor: pointer;

  &:disabled {
    cursor: not-allowed;
  }
`;

export const PickerText = styled.span`
  flex: 1;
  min-width: 0;
  overflow: hidden;
  text-overflow: ellipsis;
  white-space: nowrap;
  color: ${({ theme }) => theme.color.muted};

  [data-state='chosen'] > & {
    color: ${({ theme }) => theme.color.text};
    font-weight: ${({ theme }) => theme.fontWeight.medium};
  }
`;

export const PickerButton = styled.span`
  flex: none;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.lg}`};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.color.primary};
  color: ${({ theme }) => theme.color.onPrimary};
  font-size: ${({ theme }) => theme.fontSize.sm};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
`;

/** Takes the chosen (or refused) file away: a text button under the picker, at its start. */
export const RemoveButton = styled(Button)`
  align-self: flex-start;
`;
