export { Button } from './button';
export type { ButtonProps } from './button';
export type { ButtonSize, ButtonVariant } from './button.styles';
