export { Spinner } from './spinner';
export type { SpinnerProps } from './spinner';
export type { SpinnerSize } from './spinner.styles';
