export { TextArea, TextField } from './text-field';
export type { TextAreaProps, TextFieldProps } from './text-field';
