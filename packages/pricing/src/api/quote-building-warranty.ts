import { bandIndex, prepareRateBands } from '../core/bands';
import { floorDiv, RATE_SCALE, scaledToNumber, toScaled } from '../core/decimal';
import {
  isPlainWithOnly,
  isWholeIn,
  readOption,
  readRecord,
  readWhole,
  throwIfAny,
  throwUnreadable,
  type Issues,
} from '../core/issues';
import { BUILDING_WARRANTY_LIMITS } from '../limits';
import { BUILD_TYPES, STAGES, type BuildType, type Stage } from '../options';
import {
  BUILD_COST_BANDS,
  BUILD_TYPE_RATES,
  STAGE_RATES,
  UNITS_BANDS,
} from '../tables/building-warranty';
import { RATE_TABLE_VERSION } from './rate-table-version';

/** What a building warranty is priced on. Money in whole pounds. */
export interface BuildingWarrantyInput {
  readonly buildType: BuildType;
  readonly stage: Stage;
  /** Number of units, 1–250. */
  readonly units: number;
  /** The build value in whole pounds, 500,000–50,000,000. */
  readonly sumInsured: number;
  /** Gross development value in whole pounds, 500,000–100,000,000 (recorded, not priced). */
  readonly gdv: number;
}

/** The four rates (percentages of the sum insured) that make up a building warranty quote. */
export interface BuildingWarrantyRates {
  readonly buildCost: number;
  readonly buildType: number;
  readonly stage: number;
  readonly units: number;
}

/** A building warranty quote with the breakdown that explains it. */
export interface BuildingWarrantyQuote {
  readonly rates: BuildingWarrantyRates;
  /** The sum of the four rates, a percentage. */
  readonly totalPercentage: number;
  /** floor(sumInsured × totalPercentage / 100), whole pounds. */
  readonly estimate: number;
  readonly rateTableVersion: string;
}

const FIELDS = ['buildType', 'stage', 'units', 'sumInsured', 'gdv'] as const;
const { units: UNITS, sumInsured: SUM_INSURED, gdv: GDV } = BUILDING_WARRANTY_LIMITS;

const BUILD_COST = prepareRateBands('BUILD_COST_BANDS', BUILD_COST_BANDS);
const UNITS_RATES = prepareRateBands('UNITS_BANDS', UNITS_BANDS);
const BUILD_TYPE_SCALED = BUILD_TYPES.map((type) => toScaled(BUILD_TYPE_RATES[type]));
const STAGE_SCALED = STAGES.map((stage) => toScaled(STAGE_RATES[stage]));

interface Combination {
  readonly rates: BuildingWarrantyRates;
  readonly totalPercentage: number;
  readonly totalScaled: number;
}

/** Every combination of the four rates, computed once: index by the four band/option indexes. */
const COMBINATIONS: readonly Combination[] = BUILD_COST.values.flatMap((buildCost) =>
  BUILD_TYPE_SCALED.flatMap((buildType) =>
    STAGE_SCALED.flatMap((stage) =>
      UNITS_RATES.values.map((units) => {
        const totalScaled = buildCost + buildType + stage + units;
        return {
          rates: Object.freeze({
            buildCost: scaledToNumber(buildCost),
            buildType: scaledToNumber(buildType),
            stage: scaledToNumber(stage),
            units: scaledToNumber(units),
          }),
          totalPercentage: scaledToNumber(totalScaled),
          totalScaled,
        };
      }),
    ),
  ),
);

/** Units band index of every unit count in the domain (index 0 unused). */
const UNITS_BAND_OF: readonly number[] = Array.from({ length: UNITS.max + 1 }, (_, units) =>
  bandIndex(UNITS_RATES.from, units),
);

const PERCENT_DENOMINATOR = 100 * RATE_SCALE;

/**
 * Price a building warranty (decisions.md §1): the build cost band rate of the whole sum insured
 * plus the build type, stage and units rates; estimate = floor(sumInsured × total / 100), exact.
 *
 * @param input The build type, stage, units, sum insured and GDV.
 *
 * @returns The quote: the rates, their total, the estimate in whole pounds and the rate-table
 * version.
 *
 * @throws PricingInputError listing every missing, unknown or bad field. Nothing is clamped.
 *
 * @example
 * quoteBuildingWarranty({ buildType: 'New Build', stage: 'Not Started', units: 3,
 *   sumInsured: 1_000_000, gdv: 2_000_000 }).estimate // 11_800 (1.13 + 0.05 = 1.18%)
 */
export function quoteBuildingWarranty(input: BuildingWarrantyInput): BuildingWarrantyQuote {
  // Fast path: every field valid and no extra field. Anything else takes the collecting path.
  if (typeof input === 'object' && input !== null) {
    // A getter or Proxy trap may throw (a revoked Proxy always does): that is bad input, reported
    // without reading anything again. price() only does arithmetic on the checked whole numbers.
    try {
      const buildType = BUILD_TYPES.indexOf(input.buildType);
      const stage = STAGES.indexOf(input.stage);
      const { units, sumInsured } = input;
      if (
        buildType >= 0 &&
        stage >= 0 &&
        isWholeIn(units, UNITS.min, UNITS.max) &&
        isWholeIn(sumInsured, SUM_INSURED.min, SUM_INSURED.max) &&
        isWholeIn(input.gdv, GDV.min, GDV.max) &&
        isPlainWithOnly(input, FIELDS)
      ) {
        return price(buildType, stage, units, sumInsured);
      }
    } catch {
      return throwUnreadable();
    }
  }
  const valid = validate(input);
  return price(
    BUILD_TYPES.indexOf(valid.buildType),
    STAGES.indexOf(valid.stage),
    valid.units,
    valid.sumInsured,
  );
}

function price(
  buildType: number,
  stage: number,
  units: number,
  sumInsured: number,
): BuildingWarrantyQuote {
  const buildCostBand = bandIndex(BUILD_COST.from, sumInsured);
  const unitsBand = UNITS_BAND_OF[units] as number;
  const combination = COMBINATIONS[
    ((buildCostBand * BUILD_TYPES.length + buildType) * STAGES.length + stage) *
      UNITS_RATES.values.length +
      unitsBand
  ] as Combination;
  return {
    rates: combination.rates,
    totalPercentage: combination.totalPercentage,
    estimate: floorDiv(sumInsured * combination.totalScaled, PERCENT_DENOMINATOR),
    rateTableVersion: RATE_TABLE_VERSION,
  };
}

/**
 * The collecting validation. Each field is read once here (an input the fast path refused was read
 * once there too, so a getter runs twice) and the values read are what is priced: a
 * getter or a Proxy that answers differently on a second read cannot slip a value past the checks.
 */
function validate(input: unknown): BuildingWarrantyInput {
  const issues: Issues = [];
  const record = readRecord(issues, '', input, FIELDS);
  const valid = record && {
    buildType: readOption(issues, 'buildType', record.buildType, BUILD_TYPES),
    stage: readOption(issues, 'stage', record.stage, STAGES),
    units: readWhole(issues, 'units', record.units, UNITS, 'count'),
    sumInsured: readWhole(issues, 'sumInsured', record.sumInsured, SUM_INSURED, 'pounds'),
    gdv: readWhole(issues, 'gdv', record.gdv, GDV, 'pounds'),
  };
  throwIfAny(issues);
  return valid as BuildingWarrantyInput;
}
