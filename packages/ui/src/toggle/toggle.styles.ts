import { styled } from 'styled-components';

export const StyledToggle = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.md};
  min-height: 2.75rem;
  padding: ${({ theme }) => `${theme.space.xs} 0`};
  border: 0;
  background: none;
  color: ${({ theme }) => theme.color.text};
  font: inherit;
  text-align: left;
  cursor: pointer;

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
    border-radius: ${({ theme }) => theme.radius.sm};
  }

  &:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }
`;

export const ToggleTrack = styled.span`
  position: relative;
  flex: none;
  width: 2.75rem;
  height: 1.5rem;
  border: 2px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.full};
  background: ${({ theme }) => theme.color.surface};
  transition:
    background-color ${({ theme }) => theme.motion.duration}ms,
    border-color ${({ theme }) => theme.motion.duration}ms;

  [data-state='checked'] > & {
    border-color: ${({ theme }) => theme.color.primary};
    background: ${({ theme }) => theme.color.primary};
  }

  ${({ theme }) => theme.media.reducedMotion} {
    transition: none;
  }

  /* Forced colours turn every background into Canvas: on and off would look the same. Drawn in system colours. */
  ${({ theme }) => theme.media.forcedColors} {
    forced-color-adjust: none;
    border-color: CanvasText;
    background: Canvas;

    [data-state='checked'] > & {
      border-color: Highlight;
      background: Highlight;
    }
  }
`;

export const ToggleThumb = styled.span`
  position: absolute;
  top: 2px;
  left: 2px;
  width: 1rem;
  height: 1rem;
  border-radius: 50%;
  background: ${({ theme }) => theme.color.border};
  transition:
    transform ${({ theme }) => theme.motion.duration}ms ${({ theme }) => theme.motion.easing},
    background-color ${({ theme }) => theme.motion.duration}ms;

  [data-state='checked'] > * > & {
    background: ${({ theme }) => theme.color.onPrimary};
    transform: translateX(1.25rem);
  }

  ${({ theme }) => theme.media.reducedMotion} {
    transition: none;
  }

  ${({ theme }) => theme.media.forcedColors} {
    forced-color-adjust: none;
    background: CanvasText;

    [data-state='checked'] > * > & {
      background: HighlightText;
    }
  }
`;
