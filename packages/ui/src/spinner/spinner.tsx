import type { ComponentPropsWithRef } from 'react';
import { VisuallyHidden } from '../visually-hidden/visually-hidden';
import { SpinnerCircle, StyledSpinner, type SpinnerSize } from './spinner.styles';

export interface SpinnerProps extends Omit<ComponentPropsWithRef<'span'>, 'children' | 'role'> {
  /** What is in progress, read by screen readers. Defaults to 'Loading'. */
  label?: string;
  /** `sm` follows the font size (for buttons), `md` 1.5rem, `lg` 2.5rem. */
  size?: SpinnerSize;
  /**
   * Hide the spinner from assistive technology when something else already announces the busy state
   * (e.g. a `Button` with `aria-busy`).
   */
  decorative?: boolean;
}

/** A spinning indicator with `role="status"` and a visually hidden label. */
export function Spinner({
  label = 'Loading',
  size = 'md',
  decorative = false,
  ...rest
}: SpinnerProps) {
  if (decorative) {
    return (
      <StyledSpinner aria-hidden="true" data-ui="spinner" {...rest}>
        <SpinnerCircle $size={size} />
      </StyledSpinner>
    );
  }
  return (
    <StyledSpinner role="status" data-ui="spinner" {...rest}>
      <SpinnerCircle $size={size} aria-hidden="true" />
      <VisuallyHidden>{label}</VisuallyHidden>
    </StyledSpinner>
  );
}
