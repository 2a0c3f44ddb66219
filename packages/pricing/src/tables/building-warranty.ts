import type { DecimalString } from '../core/decimal';
import type { BuildType, Stage } from '../options';
import type { RateBand } from './types';

/**
 * Building warranty build cost rate, % of the whole sum insured, by sum-insured band in pounds
 * (decisions.md §1; the 1.23 band is kept although the domain starts at 500,000).
 */
export const BUILD_COST_BANDS = [
  { from: 1, rate: '1.23' },
  { from: 500_000, rate: '1.13' },
  { from: 5_000_000, rate: '1.03' },
  { from: 20_000_000, rate: '0.93' },
  { from: 25_000_000, rate: '0.83' },
] as const satisfies readonly RateBand[];

/** Building warranty build type rate, % of the sum insured (decisions.md §1). */
export const BUILD_TYPE_RATES = {
  'New Build': '0',
  Conversion: '0.25',
} as const satisfies Record<BuildType, DecimalString>;

/** Building warranty stage rate, % of the sum insured (decisions.md §1). */
export const STAGE_RATES = {
  'Not Started': '0',
  'Part Complete': '0.25',
  Completed: '0.5',
} as const satisfies Record<Stage, DecimalString>;

/** Building warranty units rate, % of the sum insured, by number-of-units band (decisions.md §1). */
export const UNITS_BANDS = [
  { from: 1, rate: '0.03' },
  { from: 2, rate: '0.05' },
  { from: 6, rate: '0.06' },
  { from: 11, rate: '0.05' },
  { from: 51, rate: '0' },
] as const satisfies readonly RateBand[];
