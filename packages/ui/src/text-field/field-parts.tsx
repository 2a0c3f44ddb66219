import { useId, type ReactNode } from 'react';
import { describedBy } from '../field/field';
import { FieldError, FieldHint } from '../field/field.styles';

/** The props TextField and TextArea share, beside their control's own. */
export interface FieldOwnProps {
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

/** The ids, invalid state and hint and error nodes of a text control's field. */
export function useFieldParts(
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
