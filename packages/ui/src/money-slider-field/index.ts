export { MoneySliderField } from './money-slider-field';
export type { MoneyInputProblem, MoneySliderFieldProps } from './money-slider-field';
export { parseMoneyInput } from './parse-money-input';
