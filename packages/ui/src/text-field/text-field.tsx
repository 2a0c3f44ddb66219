import type { ComponentPropsWithRef } from 'react';
import { FieldLabel, FieldRoot } from '../field/field.styles';
import { useFieldParts, type FieldOwnProps } from './field-parts';
import { StyledInput } from './text-field.styles';

export interface TextFieldProps
  extends FieldOwnProps, Omit<ComponentPropsWithRef<'input'>, keyof FieldOwnProps | 'children'> {}

/** A labelled single-line text input with optional hint and error message. */
export function TextField({
  label,
  invalid,
  errorMessage,
  hint,
  className,
  id,
  'aria-describedby': ariaDescribedBy,
  ...inputProps
}: TextFieldProps) {
  const parts = useFieldParts(id, { label, invalid, errorMessage, hint }, ariaDescribedBy);
  return (
    <FieldRoot className={className} data-ui="text-field">
      <FieldLabel htmlFor={parts.controlId}>{label}</FieldLabel>
      {parts.hintNode}
      <StyledInput
        {...inputProps}
        id={parts.controlId}
        aria-invalid={parts.isInvalid || undefined}
        aria-describedby={parts.describedBy}
      />
      {parts.errorNode}
    </FieldRoot>
  );
}
