import type { ComponentPropsWithRef, ReactNode } from 'react';
import { StyledToggle, ToggleThumb, ToggleTrack } from './toggle.styles';

/** `checked` or `unchecked`, exposed as `data-state`. */
export type ToggleState = 'checked' | 'unchecked';

export interface ToggleProps extends Omit<
  ComponentPropsWithRef<'button'>,
  'onChange' | 'children' | 'role' | 'type' | 'value'
> {
  /** Visible label inside the switch; its accessible name. */
  label: ReactNode;
  checked: boolean;
  onCheckedChange(checked: boolean): void;
}

/**
 * An on/off switch: a `<button role="switch" aria-checked>` (WAI-ARIA switch pattern), toggled by
 * click, Enter or Space.
 */
export function Toggle({ label, checked, onCheckedChange, onClick, ...rest }: ToggleProps) {
  const state: ToggleState = checked ? 'checked' : 'unchecked';
  return (
    <StyledToggle
      data-ui="toggle"
      {...rest}
      type="button"
      role="switch"
      aria-checked={checked}
      data-state={state}
      onClick={(event) => {
        onClick?.(event);
        if (!event.defaultPrevented) onCheckedChange(!checked);
      }}
    >
      <ToggleTrack aria-hidden="true">
        <ToggleThumb />
      </ToggleTrack>
      <span>{label}</span>
    </StyledToggle>
  );
}
