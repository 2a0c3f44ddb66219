import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { describedBy } from '../field/field';
import { FieldError, FieldHint, FieldLabel, FieldRoot } from '../field/field.styles';
import { StyledInput, StyledTextArea } from './text-field.styles';

interface FieldOwnProps {
  /** Visible label, always rendered and linked to the control. */
  label: ReactNode;
  /** Marks the value as wrong: failure-colour border and `aria-invalid="true"`. */
  invalid?: boolean;
  /** Shown under the control in the failure colour and linked by `aria-describedby`; implies `invalid`. */
  errorMessage?: ReactNode;
  /** Help shown under the label, linked by `aria-describedby`. */
  hint?: ReactNode;
  /** Class of the wrapper (label, control and texts). */
  className?: string;
}

export interface TextFieldProps
  extends FieldOwnProps, Omit<ComponentPropsWithRef<'input'>, keyof FieldOwnProps | 'children'> {}

export interface TextAreaProps
  extends
    FieldOwnProps,
    Omit<ComponentPropsWithRef<'textarea'>, keyof FieldOwnProps | 'children'> {}

function useFieldParts(
  id: string | undefined,
  { invalid, errorMessage, hint }: FieldOwnProps,
  ariaDescribedBy: string | undefined,
) {
  const generatedId = useId();
  const controlId = id ?? `field-${generatedId}`;
  const hintId = hint != null ? `${controlId}-hint` : undefined;
  const showError = errorMessage != null && errorMessage !== false && errorMessage !== '';
  const errorId = showError ? `${controlId}-error` : undefined;
  const isInvalid = Boolean(invalid) || showError;
  return {
    controlId,
    isInvalid,
    describedBy: describedBy(hintId, errorId, ariaDescribedBy),
    hintNode: hintId ? <FieldHint id={hintId}>{hint}</FieldHint> : null,
    errorNode: errorId ? <FieldError id={errorId}>{errorMessage}</FieldError> : null,
  };
}

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
