export { Accordion, AccordionItem } from './accordion';
export type {
  AccordionHeadingLevel,
  AccordionItemProps,
  AccordionItemState,
  AccordionProps,
} from './accordion';
export { Button } from './button';
export type { ButtonProps, ButtonSize, ButtonVariant } from './button';
export { Card } from './card';
export { containMarksCss } from './contained-marks';
export type { CardLinkProps, CardProps } from './card';
export {
  DEFAULT_FILE_PLACEHOLDER,
  DEFAULT_REMOVE_LABEL,
  DEFAULT_TOO_LARGE_MESSAGE,
  FileField,
} from './file-field';
export type { FileFieldProps, FileFieldState } from './file-field';
export { MoneySliderField, parseMoneyInput } from './money-slider-field';
export type { MoneyInputProblem, MoneySliderFieldProps } from './money-slider-field';
export { Select } from './select';
export type { SelectOption, SelectProps } from './select';
export { Slider } from './slider';
export type { SliderProps } from './slider';
export { Spinner } from './spinner';
export type { SpinnerProps, SpinnerSize } from './spinner';
export { TextArea } from './text-area';
export type { TextAreaProps } from './text-area';
export { TextField } from './text-field';
export type { TextFieldProps } from './text-field';
export {
  contrastRatio,
  createTheme,
  DEFAULT_BRANDING,
  defaultTheme,
  ensureContrast,
  GlobalStyle,
} from './theme';
export type { Branding, Breakpoints, Theme } from './theme';
export { Toggle } from './toggle';
export type { ToggleProps, ToggleState } from './toggle';
export { Tooltip } from './tooltip';
export type { TooltipProps, TooltipState } from './tooltip';
export { VisuallyHidden, visuallyHiddenCss } from './visually-hidden';
export type { VisuallyHiddenProps } from './visually-hidden';
