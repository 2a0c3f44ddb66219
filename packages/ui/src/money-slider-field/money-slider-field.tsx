import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { describedBy } from '../field/field';
import { FieldError, FieldHint, FieldLabel, FieldRoot } from '../field/field.styles';
import { snapToStep, sliderFillStyle } from '../slider/slider';
import { RangeInput, SliderBounds, SliderHeader } from '../slider/slider.styles';
import { VisuallyHidden } from '../visually-hidden/visually-hidden';
import { AmountInput } from './money-slider-field.styles';
import { readMoneyAmount } from './parse-money-input';

export interface MoneySliderFieldProps {
  /** Visible label; names the slider, and the amount field as '{label} (exact amount)'. */
  label: ReactNode;
  /** Smallest allowed amount in whole pounds. */
  min: number;
  /** Largest allowed amount in whole pounds. */
  max: number;
  /** Slider step; typed amounts may be any whole pound in range. */
  step: number;
  /** The amount in whole pounds. */
  value: number;
  /** Called with a new amount from the slider, or a typed amount once committed and valid. */
  onValueChange(value: number): void;
  /** Formats an amount for display, e.g. `formatPounds` from @firm/pricing ('£12,500,000'). */
  format(value: number): string;
  /** Id of the range input; the amount field gets `{id}-amount`. */
  id?: string;
  /** Help shown under the label, linked to both controls. */
  hint?: ReactNode;
  disabled?: boolean;
  className?: string;
  /**
   * Called when a typed amount is refused (with why) and when the field is fine again (`null`), so that a page
   * whose figures follow the amount can say they are for the amount last accepted.
   */
  onProblemChange?(problem: MoneyInputProblem | null): void;
}

/** Why a typed amount was refused. */
export type MoneyInputProblem = 'unreadable' | 'out-of-range';

/** The inline error for a refused typed amount. */
export function moneyInputMessage(
  problem: MoneyInputProblem,
  { min, max, format }: Pick<MoneySliderFieldProps, 'min' | 'max' | 'format'>,
): string {
  return problem === 'out-of-range'
    ? `Enter an amount between ${format(min)} and ${format(max)}`
    : `Enter an amount in whole pounds, such as 12,500,000, £12.5m or 750k`;
}

/**
 * A money slider paired with a text field for the exact amount. The field shows the formatted value;
 * the user may type `12,500,000`, `£12.5m`, `750k`… and commit with Enter or by leaving the field
 * (Escape restores the current amount). An unreadable or out-of-range amount is never clamped: it
 * shows an inline error, marks the field `aria-invalid`, and leaves the value unchanged.
 */
export function MoneySliderField({
  label,
  min,
  max,
  step,
  value,
  onValueChange,
  format,
  id,
  hint,
  disabled,
  className,
  onProblemChange,
}: MoneySliderFieldProps) {
  const generatedId = useId();
  const sliderId = id ?? `money-${generatedId}`;
  const amountId = `${sliderId}-amount`;
  const labelId = `${sliderId}-label`;
  const amountSuffixId = `${sliderId}-amount-suffix`;
  const hintId = hint != null ? `${sliderId}-hint` : undefined;
  const errorId = `${sliderId}-error`;

  /** What the user is typing, until committed; `null` shows the formatted value. */
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<MoneyInputProblem | null>(null);
  const formatted = format(value);
  // The latest callback, so that a new function each render does not count as a change of problem.
  const problemListener = useRef(onProblemChange);
  problemListener.current = onProblemChange;
  const reported = useRef<MoneyInputProblem | null>(null);
  useEffect(() => {
    if (reported.current === problem) return;
    reported.current = problem;
    problemListener.current?.(problem);
  }, [problem]);
  // A field taken off the page (its section switched off) shows no refused amount any more: it says so.
  useEffect(
    () => () => {
      if (reported.current !== null) problemListener.current?.(null);
    },
    [],
  );

  // A press held elsewhere (the mouse button still down on Calculate): the message, appearing at once, would push
  // what was pressed down before the press ends, and the click would land on something else (nothing would
  // happen). The field is marked invalid at once (a Calculate sees it); its message waits for the press to end.
  const pressing = useRef(false);
  const [messageHeld, setMessageHeld] = useState(false);
  useEffect(() => {
    const down = () => {
      pressing.current = true;
    };
    const up = () => {
      pressing.current = false;
    };
    window.addEventListener('pointerdown', down, true);
    window.addEventListener('pointerup', up, true);
    window.addEventListener('pointercancel', up, true);
    return () => {
      window.removeEventListener('pointerdown', down, true);
      window.removeEventListener('pointerup', up, true);
      window.removeEventListener('pointercancel', up, true);
    };
  }, []);
  useEffect(() => {
    if (!messageHeld) return undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // Once the press has ended and its click has run (the next task); at the latest a second on.
    const show = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setMessageHeld(false), 0);
    };
    const latest = setTimeout(() => setMessageHeld(false), 1000);
    window.addEventListener('pointerup', show, true);
    window.addEventListener('pointercancel', show, true);
    // Released before this ran.
    if (!pressing.current) show();
    return () => {
      clearTimeout(timer);
      clearTimeout(latest);
      window.removeEventListener('pointerup', show, true);
      window.removeEventListener('pointercancel', show, true);
    };
  }, [messageHeld]);

  const commitOnBlur = () => {
    if (pressing.current) setMessageHeld(true);
    commit();
  };

  const commit = () => {
    if (draft === null) return;
    // Compared exactly, however large: forty digits are an amount out of range, not unreadable (found by the
    // nineteenth session's portal probe: they were told to "enter an amount in whole pounds").
    const exact = readMoneyAmount(draft);
    if (exact === null) {
      setProblem('unreadable');
      return;
    }
    if (exact < BigInt(min) || exact > BigInt(max)) {
      setProblem('out-of-range');
      return;
    }
    const amount = Number(exact);
    setDraft(null);
    setProblem(null);
    if (amount !== value) onValueChange(amount);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      // Commit here rather than submit a surrounding form with a half-typed amount.
      event.preventDefault();
      commit();
    } else if (event.key === 'Escape' && draft !== null) {
      event.preventDefault();
      setDraft(null);
      setProblem(null);
    }
  };

  const message = problem && !messageHeld ? moneyInputMessage(problem, { min, max, format }) : null;

  return (
    <FieldRoot className={className} data-ui="money-slider-field">
      <SliderHeader>
        <FieldLabel id={labelId} htmlFor={sliderId}>
          {label}
        </FieldLabel>
        <AmountInput
          id={amountId}
          type="text"
          inputMode="decimal"
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          value={draft ?? formatted}
          aria-labelledby={`${labelId} ${amountSuffixId}`}
          aria-invalid={problem !== null || undefined}
          aria-describedby={describedBy(hintId, message ? errorId : undefined)}
          onChange={(event) => setDraft(event.target.value)}
          onKeyDown={handleKeyDown}
          onBlur={commitOnBlur}
        />
        <VisuallyHidden id={amountSuffixId}>(exact amount)</VisuallyHidden>
      </SliderHeader>
      {hintId ? <FieldHint id={hintId}>{hint}</FieldHint> : null}
      {message ? (
        <FieldError id={errorId} role="alert">
          {message}
        </FieldError>
      ) : null}
      <RangeInput
        type="range"
        id={sliderId}
        min={min}
        max={max}
        step={step}
        value={value}
        disabled={disabled}
        aria-valuetext={formatted}
        aria-describedby={hintId}
        style={sliderFillStyle(value, min, max)}
        onChange={(event) => {
          setDraft(null);
          setProblem(null);
          onValueChange(snapToStep(Number(event.target.value), { min, max, step }));
        }}
        onKeyDown={(event) => {
          const next = stepFromBetween(event.key, value, { min, max, step });
          if (next === undefined) return;
          event.preventDefault();
          setDraft(null);
          setProblem(null);
          if (next !== value) onValueChange(next);
        }}
      />
      <SliderBounds>
        <span>{format(min)}</span>
        <span>{format(max)}</span>
      </SliderBounds>
    </FieldRoot>
  );
}

/**
 * Where a key on the slider goes from a typed amount between two steps, or `undefined` when the amount is on a
 * step (the browser's own stepping is right then) or the key moves nothing. The browser steps from the amount as
 * it has snapped it to the nearest step, so from a typed amount it went one step too far or not at all:
 *
 * - an arrow goes to the step above it (→, ↑) or below it (←, ↓). Found by the twenty-fifth session's portal
 *   probe: → from a typed £12,345,678 (drawn at £12.5m) went to £13,000,000, past £12,500,000;
 * - Page Up / Page Down go a page (a tenth of the range in whole steps, as the browser's page, at least one step)
 *   up from the step below the amount, or down from the step above it: never more than a page, always past the
 *   next step that way, and to the bound when it is nearer. Found by the twenty-sixth session: from a typed amount
 *   just inside a bound, drawn on the bound, the browser's page went nowhere (Page Down from a typed £510,000);
 * - Home and End go to the minimum and the maximum: drawn on the bound, the browser's went nowhere either.
 *
 * Every result is on a step or a bound, and differs from the amount whenever a move that way is possible.
 *
 * @example stepFromBetween('ArrowRight', 12_345_678, { min: 500_000, max: 50_000_000, step: 500_000 }) // 12_500_000
 * @example stepFromBetween('PageUp', 12_345_678, { min: 500_000, max: 50_000_000, step: 500_000 }) // 17_000_000
 * @example stepFromBetween('PageDown', 510_000, { min: 500_000, max: 50_000_000, step: 50_000 }) // 500_000
 */
export function stepFromBetween(
  key: string,
  value: number,
  { min, max, step }: { min: number; max: number; step: number },
): number | undefined {
  if (!(step > 0)) return undefined;
  const steps = (value - min) / step;
  if (Number.isInteger(steps)) return undefined;
  const clamp = (amount: number) => Math.min(max, Math.max(min, amount));
  switch (key) {
    case 'ArrowRight':
    case 'ArrowUp':
      return clamp(min + Math.ceil(steps) * step);
    case 'ArrowLeft':
    case 'ArrowDown':
      return clamp(min + Math.floor(steps) * step);
    case 'PageUp':
      return clamp(min + (Math.floor(steps) + pageSteps({ min, max, step })) * step);
    case 'PageDown':
      return clamp(min + (Math.ceil(steps) - pageSteps({ min, max, step })) * step);
    case 'Home':
      return min;
    case 'End':
      return max;
    default:
      return undefined;
  }
}

/** How many steps Page Up and Page Down go: a tenth of the range, in whole steps, at least one (as the browser). */
function pageSteps({ min, max, step }: { min: number; max: number; step: number }): number {
  return Math.max(1, Math.round((max - min) / 10 / step));
}
