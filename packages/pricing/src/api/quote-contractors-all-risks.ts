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
import { CAR_LIMITS } from '../limits';
import { CAR_PROPERTY_TYPES, type CarPropertyType } from '../options';
import { CAR_RATES } from '../tables/contractors-all-risks';
import { RATE_TABLE_VERSION } from './rate-table-version';

/** What a contractors all risks estimate is priced on. */
export interface ContractorsAllRisksInput {
  readonly propertyType: CarPropertyType;
  /** Whole pounds, 500,000–50,000,000. */
  readonly contractWorksValue: number;
}

/** Low, medium and high: rates (percentages) in `rates`, premiums in whole pounds beside them. */
export interface ContractorsAllRisksQuote {
  readonly rates: { readonly low: number; readonly medium: number; readonly high: number };
  readonly low: number;
  readonly medium: number;
  readonly high: number;
  readonly rateTableVersion: string;
}

const FIELDS = ['propertyType', 'contractWorksValue'] as const;
const { contractWorksValue: VALUE } = CAR_LIMITS;
const PERCENT_DENOMINATOR = 100 * RATE_SCALE;

const PREPARED = CAR_PROPERTY_TYPES.map((type) => {
  const { low, medium, high } = CAR_RATES[type];
  return {
    scaled: [toScaled(low), toScaled(medium), toScaled(high)] as const,
    rates: Object.freeze({
      low: scaledToNumber(toScaled(low)),
      medium: scaledToNumber(toScaled(medium)),
      high: scaledToNumber(toScaled(high)),
    }),
  };
});

/**
 * Estimate contractors all risks cover (decisions.md §1): low, medium and high premiums are
 * floor(contractWorksValue × rate / 100) with the property type's three rates. The estimates
 * assume a 12–18 month project and no timber frame (`CAR_ASSUMPTIONS`).
 *
 * @param input The property type and the contract works value.
 *
 * @returns The three rates and the three premiums in whole pounds.
 *
 * @throws PricingInputError listing every missing, unknown or bad field. Nothing is clamped.
 *
 * @example
 * quoteContractorsAllRisks({ propertyType: 'Commercial Conversion',
 *   contractWorksValue: 1_000_000 }).high // 4_500
 */
export function quoteContractorsAllRisks(
  input: ContractorsAllRisksInput,
): ContractorsAllRisksQuote {
  // Fast path: every field valid and no extra field. Anything else takes the collecting path.
  if (typeof input === 'object' && input !== null) {
    // A getter or Proxy trap may throw (a revoked Proxy always does): that is bad input, reported
    // without reading anything again. price() only does arithmetic on the checked whole numbers.
    try {
      const type = CAR_PROPERTY_TYPES.indexOf(input.propertyType);
      const value = input.contractWorksValue;
      if (type >= 0 && isWholeIn(value, VALUE.min, VALUE.max) && isPlainWithOnly(input, FIELDS)) {
        return price(type, value);
      }
    } catch {
      return throwUnreadable();
    }
  }
  const valid = validate(input);
  return price(CAR_PROPERTY_TYPES.indexOf(valid.propertyType), valid.contractWorksValue);
}

function price(type: number, value: number): ContractorsAllRisksQuote {
  const { scaled, rates } = PREPARED[type] as (typeof PREPARED)[number];
  return {
    rates,
    low: floorDiv(value * scaled[0], PERCENT_DENOMINATOR),
    medium: floorDiv(value * scaled[1], PERCENT_DENOMINATOR),
    high: floorDiv(value * scaled[2], PERCENT_DENOMINATOR),
    rateTableVersion: RATE_TABLE_VERSION,
  };
}

/**
 * The collecting validation: each field is read once here (an input the fast path refused was read once there
 * too, so a getter runs twice), and the values read here are what is priced.
 */
function validate(input: unknown): ContractorsAllRisksInput {
  const issues: Issues = [];
  const record = readRecord(issues, '', input, FIELDS);
  const valid = record && {
    propertyType: readOption(issues, 'propertyType', record.propertyType, CAR_PROPERTY_TYPES),
    contractWorksValue: readWhole(
      issues,
      'contractWorksValue',
      record.contractWorksValue,
      VALUE,
      'pounds',
    ),
  };
  throwIfAny(issues);
  return valid as ContractorsAllRisksInput;
}
