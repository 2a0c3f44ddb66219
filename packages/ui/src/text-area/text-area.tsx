import type { ComponentPropsWithRef } from 'react';
import { FieldLabel, FieldRoot } from '../field/field.styles';
import { useFieldParts, type FieldOwnProps } from '../text-field/field-parts';
import { StyledTextArea } from './text-area.styles';

export interface TextAreaProps
  extends
    FieldOwnProps,
    Omit<ComponentPropsWithRef<'textarea'>, keyof FieldOwnProps | 'children'> {}

/** A labelled multi-line text input with optional hint and error message. */
export function TextArea({
  label,
  invalid,
  errorMessage,
  hint,
  className,
  id,
  rows = 4,
  'aria-describedby': ariaDescribedBy,
  ...textAreaProps
}: TextAreaProps) {
  const parts = useFieldParts(id, { label, invalid, errorMessage, hint }, ariaDescribedBy);
  return (
    <FieldRoot className={className} data-ui="text-area">
      <FieldLabel htmlFor={parts.controlId}>{label}</FieldLabel>
      {parts.hintNode}
      <StyledTextArea
        {...textAreaProps}
        rows={rows}
        id={parts.controlId}
        aria-invalid={parts.isInvalid || undefined}
        aria-describedby={parts.describedBy}
      />
      {parts.errorNode}
    </FieldRoot>
  );
}
