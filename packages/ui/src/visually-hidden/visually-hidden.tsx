import type { ComponentPropsWithRef } from 'react';
import { StyledVisuallyHidden } from './visually-hidden.styles';

export type VisuallyHiddenProps = ComponentPropsWithRef<'span'>;

/** Text for screen readers only: hidden on screen, still read aloud and found by `getByText`. */
export function VisuallyHidden(props: VisuallyHiddenProps) {
  return <StyledVisuallyHidden {...props} />;
}
