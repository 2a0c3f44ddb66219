import type { ComponentPropsWithRef, MouseEvent } from 'react';
import { Spinner } from '../spinner/spinner';
import { StyledButton, type ButtonSize, type ButtonVariant } from './button.styles';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  /** `primary` (filled with the branding colour, default), `secondary` (outlined) or `ghost` (text only). */
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Stretch to the width of the container. */
  fullWidth?: boolean;
  /**
   * Work is in progress: shows a spinner before the label, sets `aria-busy="true"` and
   * `aria-disabled="true"`, and ignores presses (no click, no form submission), so it cannot be
   * pressed twice. It is not made natively `disabled`: that would drop keyboard focus to the page,
   * and a keyboard user would have to find their way back to the answer.
   */
  loading?: boolean;
}

/**
 * A native `<button>`. Like the HTML element, it submits its form unless `type="button"` is given.
 */
export function Button({
  variant = 'primary',
  size = 'md',
  fullWidth = false,
  loading = false,
  disabled,
  children,
  onClick,
  ...rest
}: ButtonProps) {
  const busy = loading && !disabled;
  return (
    <StyledButton
      data-ui="button"
      data-variant={variant}
      {...rest}
      disabled={disabled}
      aria-disabled={busy || rest['aria-disabled']}
      aria-busy={loading || undefined}
      onClick={(event: MouseEvent<HTMLButtonElement>) => {
        if (busy) {
          // Neither the handler nor the form: the work already under way is the answer to this press.
          event.preventDefault();
          return;
        }
        onClick?.(event);
      }}
      $variant={variant}
      $size={size}
      $fullWidth={fullWidth}
    >
      {loading ? <Spinner size="sm" decorative /> : null}
      {children}
    </StyledButton>
  );
}
