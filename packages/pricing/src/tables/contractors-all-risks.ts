import { deepFreeze } from '../core/deep-freeze';
import type { DecimalString } from '../core/decimal';
import type { CarPropertyType } from '../options';

/** The three contractors all risks estimates: low, medium and high rates. */
export interface CarRateRow {
  readonly low: DecimalString;
  readonly medium: DecimalString;
  readonly high: DecimalString;
}

/**
 * Contractors all risks rates, % of the contract works value, by property type; they assume a
 * 12–18 month project and no timber frame (decisions.md §1).
 */
export const CAR_RATES = {
  'New Build Residential': { low: '0.25', medium: '0.3', high: '0.4' },
  'Residential Conversion': { low: '0.3', medium: '0.35', high: '0.4' },
  'New Build Commercial': { low: '0.25', medium: '0.3', high: '0.4' },
  'Commercial Conversion': { low: '0.35', medium: '0.4', high: '0.45' },
} as const satisfies Record<CarPropertyType, CarRateRow>;

/** The assumptions every contractors all risks estimate is shown with (decisions.md §1). Frozen. */
export const CAR_ASSUMPTIONS = /* @__PURE__ */ deepFreeze([
  'A 12–18 month project.',
  'No timber frame.',
] as const satisfies readonly string[]);
