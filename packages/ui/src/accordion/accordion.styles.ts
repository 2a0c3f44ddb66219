import { styled } from 'styled-components';

import { containMarksCss } from '../contained-marks';

export const StyledAccordion = styled.div`
  border-top: 1px solid ${({ theme }) => theme.color.divider};
`;

export const StyledItem = styled.div`
  border-bottom: 1px solid ${({ theme }) => theme.color.divider};
`;

export const ItemHeading = styled.h3`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.lg};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  line-height: ${({ theme }) => theme.lineHeight.tight};
`;

export const Trigger = styled.button`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.lg};
  width: 100%;
  min-height: 3rem;
  padding: ${({ theme }) => `${theme.space.lg} ${theme.space.sm}`};
  border: 0;
  background: none;
  color: ${({ theme }) => theme.color.text};
  font: inherit;
  text-align: left;
  cursor: pointer;

  &:hover {
    color: ${({ theme }) => theme.color.primary};
  }

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: -3px;
  }

  &:disabled {
    cursor: not-allowed;
    color: ${({ theme }) => theme.color.muted};
  }
`;

/** The trigger's title: one of stacked combining marks stays on it, off the titles and panels around it. */
export const TriggerTitle = styled.span`
  ${containMarksCss}
`;

export const Chevron = styled.svg`
  flex: none;
  width: 1.25rem;
  height: 1.25rem;
  transition: transform ${({ theme }) => theme.motion.duration}ms
    ${({ theme }) => theme.motion.easing};

  [data-state='open'] > & {
    transform: rotate(180deg);
  }

  ${({ theme }) => theme.media.reducedMotion} {
    transition: none;
  }
`;

/**
 * The panel stays in the DOM; closed, it carries the `hidden` attribute. Once the accordion has
 * mounted (`data-accordion-animate` on the root, so a panel open on page load does not animate),
 * opening animates from `@starting-style` (height via grid rows 0fr → 1fr, and opacity) and closing
 * keeps the panel displayed for the transition (`transition-behavior: allow-discrete` on `display`).
 * Browsers without these features show and hide it at once, as does `prefers-reduced-motion: reduce`.
 */
export const Content = styled.div`
  display: grid;
  grid-template-rows: 1fr;
  opacity: 1;

  [data-accordion-animate] & {
    transition-property: grid-template-rows, opacity, display;
    transition-duration: ${({ theme }) => theme.motion.duration}ms;
    transition-timing-function: ${({ theme }) => theme.motion.easing};
    transition-behavior: allow-discrete;

    @starting-style {
      grid-template-rows: 0fr;
      opacity: 0;
    }
  }

  &[hidden] {
    display: none;
    grid-template-rows: 0fr;
    opacity: 0;
  }

  ${({ theme }) => theme.media.reducedMotion} {
    [data-accordion-animate] & {
      transition: none;
    }
  }
`;

export const ContentClip = styled.div`
  min-height: 0;
  overflow: hidden;
`;

export const ContentBody = styled.div`
  padding: ${({ theme }) => `0 ${theme.space.sm} ${theme.space.lg}`};
`;
