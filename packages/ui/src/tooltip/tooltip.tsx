import {
  Children,
  cloneElement,
  useEffect,
  useId,
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
    >
      {trigger}
      <TooltipBubble
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
