import {
  useId,
  type ChangeEvent,
  type ComponentPropsWithRef,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { describedBy } from '../field/field';
import { FieldHint, FieldLabel, FieldRoot } from '../field/field.styles';
import { RangeInput, SliderBounds, SliderHeader, SliderValue } from './slider.styles';

export interface SliderProps extends Omit<
  ComponentPropsWithRef<'input'>,
  'type' | 'value' | 'defaultValue' | 'onChange' | 'min' | 'max' | 'step' | 'children'
> {
  /** Visible label, linked to the range input. */
  label: ReactNode;
  min: number;
  max: number;
  step: number;
  value: number;
  /** Called with the new value (a multiple of `step` from `min`) as the user moves the thumb. */
  onValueChange(value: number): void;
  /** Text for the value, shown and announced as `aria-valuetext` (e.g. '£12,500,000'). */
  formatValue?(value: number): string;
  /** Help shown under the label, linked by `aria-describedby`. */
  hint?: ReactNode;
  /** Show the formatted value beside the label and the bounds under the track. Defaults to true. */
  showValue?: boolean;
}

/**
 * A labelled native `<input type="range">` (the WAI-ARIA slider role comes for free: arrows, Page
 * Up/Down, Home/End, touch). `aria-valuetext` carries the formatted value.
 */
export function Slider({
  label,
  min,
  max,
  step,
  value,
  onValueChange,
  formatValue = String,
  hint,
  showValue = true,
  id,
  className,
  'aria-describedby': ariaDescribedBy,
  ...rest
}: SliderProps) {
  const generatedId = useId();
  const inputId = id ?? `slider-${generatedId}`;
  const hintId = hint != null ? `${inputId}-hint` : undefined;
  const formatted = formatValue(value);

  return (
    <FieldRoot className={className} data-ui="slider">
      <SliderHeader>
        <FieldLabel htmlFor={inputId}>{label}</FieldLabel>
        {showValue ? <SliderValue>{formatted}</SliderValue> : null}
      </SliderHeader>
      {hintId ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      <RangeInput
        {...rest}
        type="range"
        id={inputId}
        min={min}
        max={max}
        step={step}
        value={value}
        aria-valuetext={formatted}
        aria-describedby={describedBy(hintId, ariaDescribedBy)}
        style={sliderFillStyle(value, min, max)}
        onChange={(event: ChangeEvent<HTMLInputElement>) =>
          onValueChange(snapToStep(Number(event.target.value), { min, max, step }))
        }
      />
      {showValue ? (
        <SliderBounds>
          <span>{formatValue(min)}</span>
          <span>{formatValue(max)}</span>
        </SliderBounds>
      ) : null}
    </FieldRoot>
  );
}

/** The inline style that fills the track up to the value. */
export function sliderFillStyle(value: number, min: number, max: number): CSSProperties {
  return { '--slider-fill': `${percentOf(value, min, max)}%` } as CSSProperties;
}

/* -------------------------------------------------------------------------------------------------
 * Maths
 * -----------------------------------------------------------------------------------------------*/

/**
 * Where `value` lies between `min` and `max`, as a percentage from 0 to 100 (outside values are
 * pinned to the ends; an empty range is 0).
 *
 * @example
 * percentOf(27_500_000, 500_000, 50_000_000); // 54.54…
 * percentOf(500_000, 500_000, 50_000_000); // 0
 * percentOf(60_000_000, 500_000, 50_000_000); // 100
 */
export function percentOf(value: number, min: number, max: number): number {
  if (!(max > min)) return 0;
  const percent = ((value - min) / (max - min)) * 100;
  return Math.min(100, Math.max(0, percent));
}

/**
 * The multiple of `step` counted from `min` nearest to `value`, kept within `[min, max]` and rounded to
 * the step's decimals (no `0.30000000000000004`). For slider positions, never for typed amounts.
 *
 * @example
 * snapToStep(1_234_567, { min: 500_000, max: 50_000_000, step: 50_000 }); // 1_250_000
 * snapToStep(0.30000000000000004, { min: 0, max: 1, step: 0.1 }); // 0.3
 * snapToStep(7, { min: 0, max: 48, step: 6 }); // 6
 */
export function snapToStep(
  value: number,
  { min, max, step }: { min: number; max: number; step: number },
): number {
  if (!(step > 0)) return Math.min(max, Math.max(min, value));
  const steps = Math.round((value - min) / step);
  const decimals = Math.max(decimalCount(step), decimalCount(min));
  const snapped = Number((min + steps * step).toFixed(decimals));
  return Math.min(max, Math.max(min, snapped));
}

/**
 * How many decimals a number is written with.
 *
 * @example
 * decimalCount(0.25); // 2
 * decimalCount(50_000); // 0
 */
export function decimalCount(value: number): number {
  return (String(value).split('.')[1] ?? '').length;
}
