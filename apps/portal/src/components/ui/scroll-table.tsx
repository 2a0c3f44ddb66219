import type { FocusEvent } from 'react';
import { css, styled } from 'styled-components';

/** Only on screens too narrow for the whole table. */
export const ScrollHint = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.sm};
  font-size: ${({ theme }) => theme.fontSize.sm};
  color: ${({ theme }) => theme.color.muted};

  ${({ theme }) => theme.media.lg} {
    display: none;
  }
`;

/**
 * A labelled, focusable region (`role="region"`, `aria-labelledby`, `tabIndex={0}`) that scrolls a wide table
 * sideways inside itself, so the page never does.
 */
export const Scroller = styled.div`
  /* Positioned, so the visually hidden texts in the cells are clipped here, not by the page. */
  position: relative;
  overflow-x: auto;
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.color.surface};

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
  }
`;

/** For a table inside a {@link Scroller}: the first column stays in view while the others scroll sideways. */
export const stickyFirstColumn = css`
  tr > :first-child {
    position: sticky;
    left: 0;
    z-index: 1;
    background: ${({ theme }) => theme.color.surface};
    box-shadow: inset -1px 0 0 ${({ theme }) => theme.color.divider};
  }

  thead tr > :first-child {
    background: ${({ theme }) => theme.color.background};
  }
`;

/**
 * For a {@link Scroller}'s `onFocus`: scrolls a control focused from the keyboard sideways until it is wholly inside
 * the region's scrollport less its `scroll-padding-inline-start` / `-end` (the sticky column), with its focus ring.
 *
 * Chromium, when focus moves, leaves a control where it is if at least 32 px of it is already in view sideways (an
 * old WebKit rule, which it keeps for focus but no longer for `scrollIntoView`; csswg-drafts issue 4778): at a
 * 640 px wide window a Show more at the region's right edge stayed cut by 24 px. Called as the focus arrives, before
 * the browser's own scroll, which then finds the control in view and scrolls the page only if it must (vertically).
 * A control focused by the pointer is left alone: scrolling it on mousedown could move it from under the pointer
 * and lose the click.
 */
export function revealFocusedControl(event: FocusEvent<HTMLElement>): void {
  const region = event.currentTarget;
  const control = event.target;
  if (control === region || !isFocusVisible(control)) return;
  const regionStyle = getComputedStyle(region);
  const controlStyle = getComputedStyle(control);
  const ring =
    controlStyle.outlineStyle === 'none'
      ? 0
      : (parseFloat(controlStyle.outlineWidth) || 0) +
        Math.max(0, parseFloat(controlStyle.outlineOffset) || 0);
  const box = region.getBoundingClientRect();
  const start =
    box.left + region.clientLeft + (parseFloat(regionStyle.scrollPaddingInlineStart) || 0);
  const end =
    box.left +
    region.clientLeft +
    region.clientWidth -
    (parseFloat(regionStyle.scrollPaddingInlineEnd) || 0);
  const target = control.getBoundingClientRect();
  const left = target.left - ring;
  const right = target.right + ring;
  // The start wins when the control is wider than the room: its beginning is what is read first.
  if (left < start) region.scrollLeft -= start - left;
  else if (right > end) region.scrollLeft += Math.min(right - end, left - start);
}

function isFocusVisible(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    // An engine that does not know the selector (jsdom): treat the focus as the keyboard's.
    return true;
  }
}
