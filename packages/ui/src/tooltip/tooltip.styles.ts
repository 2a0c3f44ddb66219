import { styled } from 'styled-components';

export const TooltipAnchor = styled.span`
  position: relative;
  display: inline-flex;
`;

/** No transition: tooltips open at once (delay 0). */
export const TooltipBubble = styled.span`
  position: absolute;
  bottom: calc(100% + 8px);
  left: 50%;
  z-index: ${({ theme }) => theme.zIndex.tooltip};
  width: max-content;
  max-width: min(20rem, 80vw);
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`};
  border-radius: ${({ theme }) => theme.radius.sm};
  background: ${({ theme }) => theme.color.tooltip};
  color: ${({ theme }) => theme.color.onPrimary};
  font-size: ${({ theme }) => theme.fontSize.sm};
  font-weight: ${({ theme }) => theme.fontWeight.regular};
  line-height: ${({ theme }) => theme.lineHeight.normal};
  text-align: left;
  white-space: normal;
  /* --tooltip-shift keeps the bubble inside the viewport; the arrow stays over the trigger. */
  transform: translateX(calc(-50% + var(--tooltip-shift, 0px)));
  box-shadow: ${({ theme }) => theme.shadow.md};

  /* A bridge over the gap between the bubble and its trigger, the bubble's full width: the pointer can move from
     anywhere on the trigger up onto the bubble without leaving the anchor, which would close it (WCAG 1.4.13). */
  &::before {
    content: '';
    position: absolute;
    top: 100%;
    right: 0;
    left: 0;
    height: 10px;
  }

  &[data-side='bottom']::before {
    top: auto;
    bottom: 100%;
  }

  &::after {
    content: '';
    position: absolute;
    top: 100%;
    left: calc(50% - var(--tooltip-shift, 0px));
    border: 6px solid transparent;
    border-top-color: ${({ theme }) => theme.color.tooltip};
    transform: translateX(-50%);
  }

  /* Below the trigger when there is no room above it. */
  &[data-side='bottom'] {
    top: calc(100% + 8px);
    bottom: auto;
  }

  &[data-side='bottom']::after {
    top: auto;
    bottom: 100%;
    border-top-color: transparent;
    border-bottom-color: ${({ theme }) => theme.color.tooltip};
  }

  &[hidden] {
    display: none;
  }
`;
