export {
  DEFAULT_FILE_PLACEHOLDER,
  DEFAULT_REMOVE_LABEL,
  DEFAULT_TOO_LARGE_MESSAGE,
  FileField,
} from './file-field';
export type { FileFieldProps, FileFieldState } from './file-field';
