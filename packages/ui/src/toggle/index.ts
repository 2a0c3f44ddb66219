export { Toggle } from './toggle';
export type { ToggleProps, ToggleState } from './toggle';
