import { css, keyframes, styled } from 'styled-components';

export type SpinnerSize = 'sm' | 'md' | 'lg';

const SIZES: Record<SpinnerSize, string> = { sm: '1em', md: '1.5rem', lg: '2.5rem' };

const spin = keyframes`
  to {
    transform: rotate(360deg);
  }
`;

export const StyledSpinner = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  vertical-align: middle;
  line-height: 1;
`;

export const SpinnerCircle = styled.span<{ $size: SpinnerSize }>`
  ${({ $size }) => css`
    width: ${SIZES[$size]};
    height: ${SIZES[$size]};
    border-width: ${$size === 'lg' ? '4px' : '2px'};
  `}
  display: inline-block;
  border-style: solid;
  border-color: currentColor;
  border-right-color: transparent;
  border-radius: 50%;
  animation: ${spin} 0.8s linear infinite;

  ${({ theme }) => theme.media.reducedMotion} {
    /* Still shows that work is in progress, without fast motion. */
    animation-duration: 2.4s;
  }
`;
