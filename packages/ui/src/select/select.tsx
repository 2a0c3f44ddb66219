import { useId, type ComponentPropsWithRef, type ReactNode } from 'react';
import { describedBy } from '../field/field';
import { FieldError, FieldHint, FieldLabel, FieldRoot } from '../field/field.styles';
import { StyledSelect } from './select.styles';

/** An option with a label different from its value. */
export interface SelectOption<V extends string = string> {
  value: V;
  label: string;
  disabled?: boolean;
}

export interface SelectProps<V extends string = string> extends Omit<
  ComponentPropsWithRef<'select'>,
  'value' | 'defaultValue' | 'onChange' | 'children'
> {
  /** Visible label, linked to the select. */
  label: ReactNode;
  /** The choices: plain strings (value and label alike, e.g. `BUILD_TYPES`) or `{ value, label }`. */
  options: readonly V[] | readonly SelectOption<V>[];
  /** One of the options' values (`NoInfer`: the options alone decide `V`). */
  value: NoInfer<V>;
  onValueChange(value: NoInfer<V>): void;
  hint?: ReactNode;
  /** Failure-colour border and `aria-invalid`. */
  invalid?: boolean;
  /** Shown under the select and linked by `aria-describedby`; implies `invalid`. */
  errorMessage?: ReactNode;
}

/** A labelled native `<select>`: the platform's own keyboard and touch behaviour, themed. */
export function Select<V extends string = string>({
  label,
  options,
  value,
  onValueChange,
  hint,
  invalid,
  errorMessage,
  id,
  className,
  'aria-describedby': ariaDescribedBy,
  ...rest
}: SelectProps<V>) {
  const generatedId = useId();
  const selectId = id ?? `select-${generatedId}`;
  const hintId = hint != null ? `${selectId}-hint` : undefined;
  const errorId = errorMessage != null && errorMessage !== '' ? `${selectId}-error` : undefined;
  const isInvalid = Boolean(invalid) || errorId !== undefined;
  const normalised = options.map((option) =>
    typeof option === 'string' ? { value: option, label: option } : option,
  ) as readonly SelectOption<V>[];

  return (
    <FieldRoot className={className} data-ui="select">
      <FieldLabel htmlFor={selectId}>{label}</FieldLabel>
      {hintId ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      <StyledSelect
        {...rest}
        id={selectId}
        value={value}
        aria-invalid={isInvalid || undefined}
        aria-describedby={describedBy(hintId, errorId, ariaDescribedBy)}
        // The DOM only offers the values rendered below, all of type V.
        onChange={(event) => onValueChange(event.target.value as V)}
      >
        {normalised.map((option) => (
          <option key={option.value} value={option.value} disabled={option.disabled}>
            {option.label}
          </option>
        ))}
      </StyledSelect>
      {errorId ? <FieldError id={errorId}>{errorMessage}</FieldError> : null}
    </FieldRoot>
  );
}
