import { css, styled } from 'styled-components';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost';
export type ButtonSize = 'sm' | 'md';

const variants = {
  primary: css`
    background: ${({ theme }) => theme.color.primary};
    border-color: ${({ theme }) => theme.color.primary};
    color: ${({ theme }) => theme.color.onPrimary};

    &:hover:not(:disabled):not([aria-busy='true']) {
      background: ${({ theme }) => theme.color.primaryHover};
      border-color: ${({ theme }) => theme.color.primaryHover};
    }
  `,
  secondary: css`
    background: ${({ theme }) => theme.color.surface};
    border-color: ${({ theme }) => theme.color.primary};
    color: ${({ theme }) => theme.color.primary};

    &:hover:not(:disabled):not([aria-busy='true']) {
      border-color: ${({ theme }) => theme.color.primaryHover};
      color: ${({ theme }) => theme.color.primaryHover};
      box-shadow: inset 0 0 0 1px ${({ theme }) => theme.color.primaryHover};
    }
  `,
  ghost: css`
    background: transparent;
    border-color: transparent;
    color: ${({ theme }) => theme.color.primary};

    &:hover:not(:disabled):not([aria-busy='true']) {
      color: ${({ theme }) => theme.color.primaryHover};
      text-decoration: underline;
    }
  `,
} as const;

export const StyledButton = styled.button<{
  $variant: ButtonVariant;
  $size: ButtonSize;
  $fullWidth: boolean;
}>`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  gap: ${({ theme }) => theme.space.sm};
  width: ${({ $fullWidth }) => ($fullWidth ? '100%' : 'auto')};
  min-height: ${({ $size }) => ($size === 'sm' ? '2rem' : '2.75rem')};
  padding: ${({ $size, theme }) =>
    $size === 'sm' ? `${theme.space.xs} ${theme.space.md}` : `${theme.space.sm} ${theme.space.xl}`};
  border: 2px solid transparent;
  border-radius: ${({ theme }) => theme.radius.md};
  font-family: inherit;
  font-size: ${({ $size, theme }) => ($size === 'sm' ? theme.fontSize.sm : theme.fontSize.md)};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  line-height: ${({ theme }) => theme.lineHeight.tight};
  text-align: center;
  cursor: pointer;
  transition:
    background-color 150ms,
    border-color 150ms,
    color 150ms;

  ${({ $variant }) => variants[$variant]}

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
  }

  &:disabled {
    cursor: not-allowed;
  }

  &:disabled:not([aria-busy='true']) {
    opacity: 0.55;
  }

  &[aria-busy='true'] {
    cursor: progress;
  }

  ${({ theme }) => theme.media.reducedMotion} {
    transition: none;
  }
`;
