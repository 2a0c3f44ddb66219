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
export type { CardLinkProps, CardProps } from './card';
export { MoneySliderField, parseMoneyInput } from './money-slider-field';
export type { MoneyInputProblem, MoneySliderFieldProps } from './money-slider-field';
export { Slider } from './slider';
export type { SliderProps } from './slider';
export { Spinner } from './spinner';
export type { SpinnerProps, SpinnerSize } from './spinner';
export { TextArea, TextField } from './text-field';
export type { TextAreaProps, TextFieldProps } from './text-field';
export {
  contrastRatio,
  createTheme,
  DEFAULT_BRANDING,
  defaultTheme,
  ensureContrast,
  GlobalStyle,
} from './theme';
export type { Branding, Breakpoints, Theme } from './theme';
export { VisuallyHidden, visuallyHiddenCss } from './visually-hidden';
export type { VisuallyHiddenProps } from './visually-hidden';
