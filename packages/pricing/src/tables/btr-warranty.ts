import type { DecimalString } from '../core/decimal';
import type { BtrTermMonths, Stage } from '../options';

/** BTR warranty base rate, % of the sum insured (decisions.md §1). */
export const BTR_BASE_RATE = '0.85' as const satisfies DecimalString;

/** BTR warranty stage rate, % of the sum insured, added to the base rate (decisions.md §1). */
export const BTR_STAGE_RATES = {
  'Not Started': '0',
  'Part Complete': '0.31',
  Completed: '0.51',
} as const satisfies Record<Stage, DecimalString>;

/**
 * Loss of rent rate by term in months: a fraction of the anticipated rental income per year of
 * the term, not a percentage (decisions.md §1).
 */
export const LOSS_OF_RENT_TERM_RATES = {
  12: '0.0085',
  24: '0.0072',
  36: '0.0064',
} as const satisfies Record<BtrTermMonths, DecimalString>;

/** Loss of rent charge in whole pounds per month of the programme of works (decisions.md §1). */
export const PROGRAMME_CHARGE_PER_MONTH = 2_000;

/** Insurance premium tax, % of the BTR sub-total, floored to whole pounds (decisions.md §1). */
export const IPT_RATE = '12' as const satisfies DecimalString;
