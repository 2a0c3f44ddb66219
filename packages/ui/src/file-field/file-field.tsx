import {
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
  type ComponentPropsWithRef,
  type ReactNode,
} from 'react';
import { describedBy } from '../field/field';
import { FieldError, FieldHint, FieldLabel, FieldRoot } from '../field/field.styles';
import { mergeRefs } from '../utils/merge-refs';
import {
  NativeFileInput,
  Picker,
  PickerButton,
  PickerText,
  RemoveButton,
} from './file-field.styles';

export const DEFAULT_FILE_PLACEHOLDER = 'Choose file (max 20Mb)';
export const DEFAULT_TOO_LARGE_MESSAGE = 'File size should be less than 20MB.';
export const DEFAULT_REMOVE_LABEL = 'Remove file';

/** `empty` until a file is chosen, then `chosen`; exposed as `data-state` on the picker. */
export type FileFieldState = 'empty' | 'chosen';

export interface FileFieldProps extends Omit<
  ComponentPropsWithRef<'input'>,
  'type' | 'value' | 'defaultValue' | 'onChange' | 'children' | 'multiple' | 'placeholder'
> {
  /** Visible label, linked to the file input. */
  label: ReactNode;
  /** File types the picker offers, as the HTML `accept` attribute (e.g. `.pdf,.docx`). */
  accept?: string;
  /** Shown until a file is chosen. Defaults to 'Choose file (max 20Mb)'. */
  placeholder?: string;
  /** Largest accepted file in bytes (20 MB is `20 * 1024 * 1024`). Larger files are refused at once. */
  maxBytes?: number;
  /** Shown when the chosen file is larger than `maxBytes`. Defaults to 'File size should be less than 20MB.' */
  tooLargeMessage?: string;
  /**
   * With it, an empty (0-byte) file is refused at once as one over `maxBytes` is, and this is shown. Without it,
   * an empty file is taken.
   */
  emptyMessage?: ReactNode;
  /** Called with the chosen file, or `null` when the choice is cleared, refused or removed. */
  onFileChange(file: File | null): void;
  /** Called when the user presses the remove button (after `onFileChange(null)`). */
  onRemove?(): void;
  /** Text of the button that takes a chosen or refused file away. Defaults to 'Remove file'. */
  removeLabel?: string;
  /** An error from the form (e.g. required), shown under the picker; implies `invalid`. */
  errorMessage?: ReactNode;
  /** Failure-colour border and `aria-invalid`. */
  invalid?: boolean;
  hint?: ReactNode;
  /** Text of the visual button. Defaults to 'Browse'. */
  buttonLabel?: string;
}

/**
 * A native file input (so keyboard, screen readers and form submission work as usual) dressed as a
 * field showing the placeholder or the chosen file's name. A file larger than `maxBytes` (or, with
 * `emptyMessage`, an empty one) is refused before any upload: the message shows, the input is cleared
 * and `onFileChange(null)` is called. While a file is chosen or refused, a button beside the picker takes
 * it away: a browser's own picker offers no way to go back to no file (Chrome's Cancel does; Firefox's and
 * Safari's keep the file), so a form could not be sent without one (found by the twentieth session's
 * portal probe).
 */
export function FileField({
  label,
  placeholder = DEFAULT_FILE_PLACEHOLDER,
  maxBytes,
  tooLargeMessage = DEFAULT_TOO_LARGE_MESSAGE,
  emptyMessage,
  onFileChange,
  onRemove,
  removeLabel = DEFAULT_REMOVE_LABEL,
  errorMessage,
  invalid,
  hint,
  buttonLabel = 'Browse',
  id,
  className,
  ref,
  'aria-describedby': ariaDescribedBy,
  ...inputProps
}: FileFieldProps) {
  const generatedId = useId();
  const inputId = id ?? `file-${generatedId}`;
  const displayId = `${inputId}-display`;
  const hintId = hint != null ? `${inputId}-hint` : undefined;
  const errorId = `${inputId}-error`;
  const inputRef = useRef<HTMLInputElement | null>(null);
  const composedRef = useMemo(() => mergeRefs(inputRef, ref), [ref]);
  const [fileName, setFileName] = useState<string | null>(null);
  const [refusal, setRefusal] = useState<'too-large' | 'empty' | null>(null);

  // A form reset empties the native input; forget the chosen name with it.
  useEffect(() => {
    const form = inputRef.current?.form;
    if (!form) return undefined;
    const forget = () => {
      setFileName(null);
      setRefusal(null);
    };
    form.addEventListener('reset', forget);
    return () => form.removeEventListener('reset', forget);
  }, []);

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0] ?? null;
    const refused =
      file === null
        ? null
        : maxBytes !== undefined && file.size > maxBytes
          ? 'too-large'
          : emptyMessage != null && file.size === 0
            ? 'empty'
            : null;
    if (refused !== null) {
      event.target.value = '';
      setFileName(null);
      setRefusal(refused);
      onFileChange(null);
      return;
    }
    setRefusal(null);
    setFileName(file?.name ?? null);
    onFileChange(file);
  };

  const remove = () => {
    if (inputRef.current) inputRef.current.value = '';
    setFileName(null);
    setRefusal(null);
    onFileChange(null);
    onRemove?.();
    inputRef.current?.focus();
  };

  const message =
    refusal === 'too-large'
      ? tooLargeMessage
      : refusal === 'empty'
        ? emptyMessage
        : errorMessage != null && errorMessage !== ''
          ? errorMessage
          : null;
  const isInvalid = Boolean(invalid) || message !== null;
  const state: FileFieldState = fileName ? 'chosen' : 'empty';

  return (
    <FieldRoot className={className} data-ui="file-field">
      <FieldLabel htmlFor={inputId}>{label}</FieldLabel>
      {hintId ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      <Picker data-state={state} data-invalid={isInvalid ? '' : undefined}>
        <NativeFileInput
          {...inputProps}
          ref={composedRef}
          type="file"
          id={inputId}
          aria-invalid={isInvalid || undefined}
          aria-describedby={describedBy(
            displayId,
            hintId,
            message !== null ? errorId : undefined,
            ariaDescribedBy,
          )}
          onChange={handleChange}
        />
        <PickerText id={displayId}>{fileName ?? placeholder}</PickerText>
        <PickerButton aria-hidden="true">{buttonLabel}</PickerButton>
      </Picker>
      {fileName !== null || refusal !== null ? (
        <RemoveButton
          type="button"
          variant="ghost"
          size="sm"
          aria-describedby={displayId}
          onClick={remove}
        >
          {removeLabel}
        </RemoveButton>
      ) : null}
      {message !== null ? (
        <FieldError id={errorId} role="alert">
          {message}
        </FieldError>
      ) : null}
    </FieldRoot>
  );
}
