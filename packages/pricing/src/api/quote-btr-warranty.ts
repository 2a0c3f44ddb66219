import { floorDiv, RATE_SCALE, scaledToNumber, toScaled } from '../core/decimal';
import {
  isPlainWithOnly,
  isWholeIn,
  readLossOfRentRecord,
  readOption,
  readRecord,
  readWhole,
  throwIfAny,
  throwUnreadable,
  type Issues,
} from '../core/issues';
import { BTR_LIMITS } from '../limits';
import { BTR_TERMS, STAGES, type BtrTermMonths, type Stage } from '../options';
import {
  BTR_BASE_RATE,
  BTR_STAGE_RATES,
  IPT_RATE,
  LOSS_OF_RENT_TERM_RATES,
  PROGRAMME_CHARGE_PER_MONTH,
} from '../tables/btr-warranty';
import { RATE_TABLE_VERSION } from './rate-table-version';

/** The optional loss of rent cover of a BTR warranty. */
export interface LossOfRentInput {
  /** Anticipated rental income per year in whole pounds, 1,000,000–35,000,000. */
  readonly anticipatedRentalIncome: number;
  readonly termMonths: BtrTermMonths;
  /** Programme of works in months: 0, 6, 12 … 48. */
  readonly programmeMonths: number;
}

/** What a build-to-rent warranty is priced on. Money in whole pounds. */
export interface BtrWarrantyInput {
  readonly stage: Stage;
  /** Number of units, 50–500 (recorded, not priced). */
  readonly units: number;
  /** Whole pounds, 8,000,000–350,000,000. */
  readonly sumInsured: number;
  /** Gross development value in whole pounds, 20,000,000–500,000,000 (recorded, not priced). */
  readonly gdv: number;
  /** Leave out (or give undefined) for no loss of rent cover. */
  readonly lossOfRent?: LossOfRentInput | undefined;
}

/** The rates behind a BTR quote: percentages of the sum insured, and the loss of rent term rate. */
export interface BtrWarrantyRates {
  readonly base: number;
  readonly stage: number;
  /** Fraction of the rental income per year; null without loss of rent. */
  readonly lossOfRentTerm: number | null;
}

/** A BTR warranty quote. Every line is whole pounds and subTotal + ipt = total. */
export interface BtrWarrantyQuote {
  readonly rates: BtrWarrantyRates;
  /** base + stage, a percentage. */
  readonly totalPercentage: number;
  readonly warrantyPremium: number;
  readonly lossOfRentPremium: number;
  readonly subTotal: number;
  readonly ipt: number;
  readonly total: number;
  readonly rateTableVersion: string;
}

const FIELDS = ['stage', 'units', 'sumInsured', 'gdv', 'lossOfRent'] as const;
const LOSS_OF_RENT_FIELDS = ['anticipatedRentalIncome', 'termMonths', 'programmeMonths'] as const;
const {
  units: UNITS,
  sumInsured: SUM_INSURED,
  gdv: GDV,
  anticipatedRentalIncome: INCOME,
  programmeMonths: PROGRAMME,
} = BTR_LIMITS;

const BASE_SCALED = toScaled(BTR_BASE_RATE);
const STAGE_SCALED = STAGES.map((stage) => toScaled(BTR_STAGE_RATES[stage]));
const TOTAL_SCALED = STAGE_SCALED.map((stage) => BASE_SCALED + stage);
const TOTAL_PERCENTAGE = TOTAL_SCALED.map(scaledToNumber);
const TERM_SCALED = BTR_TERMS.map((term) => toScaled(LOSS_OF_RENT_TERM_RATES[term]));
const IPT_SCALED = toScaled(IPT_RATE);
const PERCENT_DENOMINATOR = 100 * RATE_SCALE;
const TERM_DENOMINATOR = 12 * RATE_SCALE;

/** The rates object of every stage × (no loss of rent, each term), computed once. */
const RATES: readonly (readonly BtrWarrantyRates[])[] = STAGE_SCALED.map((stage) =>
  [null, ...TERM_SCALED].map((term) =>
    Object.freeze({
      base: scaledToNumber(BASE_SCALED),
      stage: scaledToNumber(stage),
      lossOfRentTerm: term === null ? null : scaledToNumber(term),
    }),
  ),
);

/**
 * Price a build-to-rent warranty with optional loss of rent (decisions.md §1):
 * warrantyPremium = floor(sumInsured × (0.85 + stage rate) / 100);
 * lossOfRentPremium = floor(income × term rate × termMonths / 12) + 2,000 × programmeMonths;
 * ipt = floor(subTotal × 12 / 100); total = subTotal + ipt. All exact, all whole pounds.
 *
 * @param input The stage, units, sum insured, GDV and, optionally, the loss of rent cover.
 *
 * @returns The quote with its rates and every line.
 *
 * @throws PricingInputError listing every missing, unknown or bad field. Nothing is clamped.
 *
 * @example
 * quoteBtrWarranty({ stage: 'Not Started', units: 100, sumInsured: 10_000_000,
 *   gdv: 30_000_000 }).total // 95_200 (85,000 + 12% IPT)
 */
export function quoteBtrWarranty(input: BtrWarrantyInput): BtrWarrantyQuote {
  // Fast path: every field valid and no extra field. Anything else takes the collecting path.
  if (typeof input === 'object' && input !== null) {
    // A getter or Proxy trap may throw (a revoked Proxy always does): that is bad input, reported
    // without reading anything again. price() only does arithmetic on the checked whole numbers.
    try {
      const stage = STAGES.indexOf(input.stage);
      const { sumInsured, lossOfRent } = input;
      if (
        stage >= 0 &&
        isWholeIn(input.units, UNITS.min, UNITS.max) &&
        isWholeIn(sumInsured, SUM_INSURED.min, SUM_INSURED.max) &&
        isWholeIn(input.gdv, GDV.min, GDV.max)
      ) {
        if (lossOfRent === undefined) {
          if (isPlainWithOnly(input, FIELDS)) {
            return price(stage, sumInsured, -1, 0, 0);
          }
        } else if (typeof lossOfRent === 'object' && lossOfRent !== null) {
          const term = BTR_TERMS.indexOf(lossOfRent.termMonths);
          const { anticipatedRentalIncome, programmeMonths } = lossOfRent;
          if (
            term >= 0 &&
            isWholeIn(anticipatedRentalIncome, INCOME.min, INCOME.max) &&
            isWholeIn(programmeMonths, PROGRAMME.min, PROGRAMME.max) &&
            programmeMonths % PROGRAMME.step === 0 &&
            isPlainWithOnly(input, FIELDS) &&
            isPlainWithOnly(lossOfRent, LOSS_OF_RENT_FIELDS)
          ) {
            return price(stage, sumInsured, term, anticipatedRentalIncome, programmeMonths);
          }
        }
      }
    } catch {
      return throwUnreadable();
    }
  }
  const valid = validate(input);
  const lossOfRent = valid.lossOfRent;
  return price(
    STAGES.indexOf(valid.stage),
    valid.sumInsured,
    lossOfRent === undefined ? -1 : BTR_TERMS.indexOf(lossOfRent.termMonths),
    lossOfRent?.anticipatedRentalIncome ?? 0,
    lossOfRent?.programmeMonths ?? 0,
  );
}

/** `term` is the index into BTR_TERMS, or -1 for no loss of rent. */
function price(
  stage: number,
  sumInsured: number,
  term: number,
  income: number,
  programmeMonths: number,
): BtrWarrantyQuote {
  const warrantyPremium = floorDiv(
    sumInsured * (TOTAL_SCALED[stage] as number),
    PERCENT_DENOMINATOR,
  );
  const lossOfRentPremium =
    term < 0
      ? 0
      : floorDiv(
          income * (TERM_SCALED[term] as number) * (BTR_TERMS[term] as number),
          TERM_DENOMINATOR,
        ) +
        PROGRAMME_CHARGE_PER_MONTH * programmeMonths;
  const subTotal = warrantyPremium + lossOfRentPremium;
  const ipt = floorDiv(subTotal * IPT_SCALED, PERCENT_DENOMINATOR);
  return {
    rates: (RATES[stage] as readonly BtrWarrantyRates[])[term + 1] as BtrWarrantyRates,
    totalPercentage: TOTAL_PERCENTAGE[stage] as number,
    warrantyPremium,
    lossOfRentPremium,
    subTotal,
    ipt,
    total: subTotal + ipt,
    rateTableVersion: RATE_TABLE_VERSION,
  };
}

/**
 * The collecting validation. Each field is read once here (an input the fast path refused was read
 * once there too, so a getter runs twice) and the values read are what is priced: a
 * getter or a Proxy that answers differently on a second read cannot slip a value past the checks.
 */
function validate(input: unknown): BtrWarrantyInput {
  const issues: Issues = [];
  const record = readRecord(issues, '', input, FIELDS);
  const valid = record && {
    stage: readOption(issues, 'stage', record.stage, STAGES),
    units: readWhole(issues, 'units', record.units, UNITS, 'count'),
    sumInsured: readWhole(issues, 'sumInsured', record.sumInsured, SUM_INSURED, 'pounds'),
    gdv: readWhole(issues, 'gdv', record.gdv, GDV, 'pounds'),
    lossOfRent: validateLossOfRent(issues, record.lossOfRent),
  };
  throwIfAny(issues);
  return valid as BtrWarrantyInput;
}

/** The optional loss of rent group: undefined when left out (or, with an issue, when bad). */
function validateLossOfRent(issues: Issues, value: unknown): LossOfRentInput | undefined {
  if (value === undefined) return undefined;
  const lossOfRent = readLossOfRentRecord(issues, value, LOSS_OF_RENT_FIELDS);
  if (lossOfRent === undefined) return undefined;
  return {
    anticipatedRentalIncome: readWhole(
      issues,
      'lossOfRent.anticipatedRentalIncome',
      lossOfRent.anticipatedRentalIncome,
      INCOME,
      'pounds',
    ),
    termMonths: readOption(issues, 'lossOfRent.termMonths', lossOfRent.termMonths, BTR_TERMS),
    programmeMonths: readWhole(
      issues,
      'lossOfRent.programmeMonths',
      lossOfRent.programmeMonths,
      PROGRAMME,
      'count',
      PROGRAMME.step,
    ),
  } as LossOfRentInput;
}
