export { VisuallyHidden } from './visually-hidden';
export type { VisuallyHiddenProps } from './visually-hidden';
export { visuallyHiddenCss } from './visually-hidden.styles';
