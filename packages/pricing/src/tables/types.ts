import type { DecimalString } from '../core/decimal';

/**
 * One band of a banded rate. A band applies from `from` (inclusive) up to the next band's `from`
 * (exclusive); the last band runs to the domain's maximum. Bands apply to the whole amount, they
 * are not marginal tiers.
 */
export interface RateBand {
  readonly from: number;
  readonly rate: DecimalString;
}

/** One band of a banded limit in whole pounds, keyed on the contract value. */
export interface LimitBand {
  readonly from: number;
  readonly limit: number;
}
