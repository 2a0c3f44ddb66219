/**
 * Input limits: every slider's minimum, maximum, screen step and default (portal-spec.md §9,
 * decisions.md §1). The step is a screen convenience: the library prices any whole value in range,
 * except where a field says otherwise (BTR programme months must be a multiple of 6). Every table is
 * frozen: the pricing functions validate against these very objects.
 */

import { deepFreeze } from './core/deep-freeze';

/** One slider: inclusive bounds, the screen's step and the value it starts at. */
export interface SliderLimit {
  readonly min: number;
  readonly max: number;
  readonly step: number;
  readonly default: number;
}

/** Building warranty sliders: units, sum insured (the build value) and GDV, in whole pounds. */
export const BUILDING_WARRANTY_LIMITS = /* @__PURE__ */ deepFreeze({
  units: { min: 1, max: 250, step: 1, default: 1 },
  sumInsured: { min: 500_000, max: 50_000_000, step: 50_000, default: 500_000 },
  gdv: { min: 500_000, max: 100_000_000, step: 50_000, default: 500_000 },
} as const satisfies Record<string, SliderLimit>);

/** BTR warranty sliders, including the optional loss of rent (programme in months, steps of 6). */
export const BTR_LIMITS = /* @__PURE__ */ deepFreeze({
  units: { min: 50, max: 500, step: 1, default: 50 },
  sumInsured: { min: 8_000_000, max: 350_000_000, step: 500_000, default: 8_000_000 },
  gdv: { min: 20_000_000, max: 500_000_000, step: 500_000, default: 20_000_000 },
  anticipatedRentalIncome: { min: 1_000_000, max: 35_000_000, step: 500_000, default: 1_000_000 },
  programmeMonths: { min: 0, max: 48, step: 6, default: 0 },
} as const satisfies Record<string, SliderLimit>);

/** Contractors all risks slider: the contract works value in whole pounds. */
export const CAR_LIMITS = /* @__PURE__ */ deepFreeze({
  contractWorksValue: { min: 500_000, max: 50_000_000, step: 50_000, default: 500_000 },
} as const satisfies Record<string, SliderLimit>);

/** Insurance framework sliders in whole pounds (reinstatement may be 0: no existing structures). */
export const FRAMEWORK_LIMITS = /* @__PURE__ */ deepFreeze({
  contractValue: { min: 500_000, max: 50_000_000, step: 50_000, default: 500_000 },
  gdv: { min: 500_000, max: 50_000_000, step: 50_000, default: 500_000 },
  reinstatement: { min: 0, max: 50_000_000, step: 50_000, default: 0 },
} as const satisfies Record<string, SliderLimit>);
