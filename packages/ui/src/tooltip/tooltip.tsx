import {
  Children,
  cloneElement,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
  type ReactElement,
  type ReactNode,
} from 'react';
import { describedBy } from '../field/field';
import { TooltipAnchor, TooltipBubble } from './tooltip.styles';

/** `open` or `closed`, exposed as `data-state` on the tooltip. */
export type TooltipState = 'open' | 'closed';

export interface TooltipProps {
  /** The tooltip text; describes the trigger (`aria-describedby`). Keep it short and plain. */
  content: ReactNode;
  /** One focusable element (a button, a link…) that receives `aria-describedby`. */
  children: ReactElement<{ 'aria-describedby'?: string }>;
  /** Id of the tooltip element; generated when omitted. */
  id?: string;
}

/**
 * The WAI-ARIA tooltip pattern: opens with no delay when the trigger is hovered or focused, stays
 * open while the pointer is over it (WCAG 1.4.13), and closes on Escape, blur or pointer leave.
 */
export function Tooltip({ content, children, id }: TooltipProps) {
  const generatedId = useId();
  const tooltipId = id ?? `tooltip-${generatedId}`;
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [dismissed, setDismissed] = useState(false);
  const open = (hovered || focused) && !dismissed;
  const bubbleRef = useRef<HTMLSpanElement>(null);

  useLayoutEffect(() => {
    if (open && bubbleRef.current) keepInViewport(bubbleRef.current);
  }, [open]);

  useEffect(() => {
    if (!open) return undefined;
    const dismissOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setDismissed(true);
    };
    document.addEventListener('keydown', dismissOnEscape);
    return () => document.removeEventListener('keydown', dismissOnEscape);
  }, [open]);

  const child = Children.only(children);
  const trigger = cloneElement(child, {
    'aria-describedby': describedBy(child.props['aria-describedby'], tooltipId),
  });

  return (
    <TooltipAnchor
      data-ui="tooltip-anchor"
      onMouseEnter={() => {
        setHovered(true);
        setDismissed(false);
      }}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => {
        setFocused(true);
        setDismissed(false);
      }}
      onBlur={() => setFocused(false)}
      // Activating the trigger (a click, or Enter or Space on a button) shows the tooltip again after Escape.
      onClick={() => setDismissed(false)}
    >
      {trigger}
      <TooltipBubble
        ref={bubbleRef}
        role="tooltip"
        id={tooltipId}
        data-state={open ? 'open' : 'closed'}
        hidden={!open}
      >
        {content}
      </TooltipBubble>
    </TooltipAnchor>
  );
}

/** Space kept between the tooltip and the edges of the viewport, in px. */
const VIEWPORT_MARGIN = 8;

/**
 * Measures the open tooltip and, before it is painted, shifts it sideways to stay inside the viewport
 * and moves it below the trigger when there is no room above (no layout, as in jsdom: left as is).
 */
function keepInViewport(bubble: HTMLElement): void {
  bubble.style.setProperty('--tooltip-shift', '0px');
  bubble.dataset.side = 'top';
  const rect = bubble.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return;
  const shift = horizontalShift(rect.left, rect.right, window.innerWidth, VIEWPORT_MARGIN);
  bubble.style.setProperty('--tooltip-shift', `${shift}px`);
  if (rect.top < VIEWPORT_MARGIN) bubble.dataset.side = 'bottom';
}

/**
 * How far to move a box spanning `left`–`right` so that it sits inside `[margin, viewport - margin]`
 * (the left edge wins when the box is wider than the room).
 *
 * @example
 * horizontalShift(-40, 160, 390, 8); // 48 (moved right)
 * horizontalShift(300, 420, 390, 8); // -38 (moved left)
 * horizontalShift(100, 200, 390, 8); // 0
 */
export function horizontalShift(
  left: number,
  right: number,
  viewport: number,
  margin: number,
): number {
  if (left < margin) return margin - left;
  if (right > viewport - margin) return Math.max(margin - left, viewport - margin - right);
  return 0;
}
