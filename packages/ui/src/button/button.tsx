import type { ComponentPropsWithRef } from 'react';
import { Spinner } from '../spinner/spinner';
import { StyledButton, type ButtonSize, type ButtonVariant } from './button.styles';

export interface ButtonProps extends ComponentPropsWithRef<'button'> {
  /** `primary` (filled with the branding colour, default), `secondary` (outlined) or `ghost` (text only). */
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** Stretch to the width of the container. */
  fullWidth?: boolean;
  /**
   * Work is in progress: shows a spinner before the label, sets `aria-busy="true"` and disables the
   * button so it cannot be pressed twice.
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
  ...rest
}: ButtonProps) {
  return (
    <StyledButton
      data-ui="button"
      data-variant={variant}
      {...rest}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      $variant={variant}
      $size={size}
      $fullWidth={fullWidth}
    >
      {loading ? <Spinner size="sm" decorative /> : null}
      {children}
    </StyledButton>
  );
}
