import { bandIndex } from '../core/bands';
import { floorDiv, RATE_SCALE, toScaled } from '../core/decimal';
import {
  readBoolean,
  readOption,
  readRecord,
  readWhole,
  throwIfAny,
  type Issues,
} from '../core/issues';
import { FRAMEWORK_LIMITS } from '../limits';
import {
  CONTRACTORS,
  DEVELOPMENT_TYPES,
  FRAMEWORK_PROPERTY_TYPES,
  SCHEME_LOCATIONS,
  type Contractor,
  type DevelopmentType,
  type FrameworkPropertyType,
  type GuideTag,
  type InsuranceName,
  type Requirement,
  type SchemeLocation,
} from '../options';
import {
  EMPLOYERS_LIABILITY_LIMIT,
  PROFESSIONAL_INDEMNITY_BANDS,
  PUBLIC_LIABILITY_BANDS,
} from '../tables/framework-limits';
import {
  FRAMEWORK_ROWS,
  type FrameworkCondition,
  type FrameworkRowRules,
} from '../tables/framework-rows';
import { RATE_TABLE_VERSION } from './rate-table-version';

/** What the insurance framework is recommended from. Money in whole pounds. */
export interface InsuranceFrameworkInput {
  readonly propertyType: FrameworkPropertyType;
  /** Whole pounds, 500,000–50,000,000. */
  readonly contractValue: number;
  readonly hasBasement: boolean;
  readonly developmentType: DevelopmentType;
  /** Gross development value in whole pounds, 500,000–50,000,000. */
  readonly gdv: number;
  readonly contractor: Contractor;
  readonly schemeLocation: SchemeLocation;
  /** Reinstatement value of existing structures in whole pounds, 0–50,000,000. */
  readonly reinstatement: number;
  readonly hasFlatRoof: boolean;
}

/** One insurance of the recommendation. */
export interface FrameworkRow {
  readonly insurance: InsuranceName;
  readonly required: Requirement;
  /** A limit or sum in whole pounds, a short text, or null when the insurance is not required. */
  readonly value: number | string | null;
  readonly buyer: GuideTag | 'Not required';
  /** Plain text (the screen clamps it to two lines). */
  readonly notes: string;
  /** Why the requirement applies: the rule that decided it. */
  readonly why: string;
}

/** The recommended limits in whole pounds and the 15 rows. */
export interface InsuranceFrameworkRecommendation {
  /** Recommended minimum ("at least" in the lowest band). */
  readonly professionalIndemnity: number;
  readonly publicLiability: number;
  readonly employersLiability: number;
  readonly rows: readonly FrameworkRow[];
  readonly rateTableVersion: string;
}

const FIELDS = [
  'propertyType',
  'contractValue',
  'hasBasement',
  'developmentType',
  'gdv',
  'contractor',
  'schemeLocation',
  'reinstatement',
  'hasFlatRoof',
] as const;
const { contractValue: CONTRACT_VALUE, gdv: GDV, reinstatement: REINSTATEMENT } = FRAMEWORK_LIMITS;
const PI_FROM = PROFESSIONAL_INDEMNITY_BANDS.map((band) => band.from);
const PL_FROM = PUBLIC_LIABILITY_BANDS.map((band) => band.from);
const PERCENT_SCALED: ReadonlyMap<FrameworkRowRules, number> = new Map(
  (FRAMEWORK_ROWS as readonly FrameworkRowRules[]).flatMap((row) =>
    'percentOf' in row.value ? [[row, toScaled(row.value.rate)] as const] : [],
  ),
);

/**
 * Recommend the insurance framework of a development (decisions.md §1): the professional
 * indemnity, public liability and employers liability limits keyed on the contract value, and the
 * 15 insurances with whether each is required, its value, who buys it, notes and why.
 *
 * @param input The development's property type, values, contracting route and features.
 *
 * @returns The limits and the 15 rows in the framework's order.
 *
 * @throws PricingInputError listing every missing, unknown or bad field. Nothing is clamped.
 *
 * @example
 * recommendInsuranceFramework({ propertyType: 'Residential', contractValue: 6_000_000,
 *   hasBasement: false, developmentType: 'New Build (Ground Up)', gdv: 9_000_000,
 *   contractor: 'Main contractor (JCT Design and Build)', schemeLocation: 'Urban',
 *   reinstatement: 0, hasFlatRoof: false }).professionalIndemnity // 10_000_000
 */
export function recommendInsuranceFramework(
  input: InsuranceFrameworkInput,
): InsuranceFrameworkRecommendation {
  const valid = validate(input);
  const limits = {
    professionalIndemnity: limitFor(PROFESSIONAL_INDEMNITY_BANDS, PI_FROM, valid.contractValue),
    publicLiability: limitFor(PUBLIC_LIABILITY_BANDS, PL_FROM, valid.contractValue),
    employersLiability: EMPLOYERS_LIABILITY_LIMIT,
  };
  const rows = (FRAMEWORK_ROWS as readonly FrameworkRowRules[]).map((row): FrameworkRow => {
    const rule = row.requirement.find((candidate) => matches(candidate.when, valid));
    const buyer = row.buyer.find((candidate) => matches(candidate.when, valid));
    if (rule === undefined || buyer === undefined) {
      throw new Error(`FRAMEWORK_ROWS: ${row.insurance} has no rule for this input.`);
    }
    return {
      insurance: row.insurance,
      required: rule.required,
      value: rule.required === 'Not required' ? null : valueOf(row, valid, limits),
      buyer: buyer.buyer,
      notes: row.notes
        .filter((note) => matches(note.when, valid))
        .map((note) => note.text)
        .join(' '),
      why: rule.why,
    };
  });
  return { ...limits, rows, rateTableVersion: RATE_TABLE_VERSION };
}

function limitFor(
  bands: readonly { readonly limit: number }[],
  from: readonly number[],
  contractValue: number,
): number {
  return (bands[bandIndex(from, contractValue)] as { readonly limit: number }).limit;
}

function matches(when: FrameworkCondition | undefined, input: InsuranceFrameworkInput): boolean {
  if (when === undefined) return true;
  return (
    (when.propertyType?.includes(input.propertyType) ?? true) &&
    (when.developmentType?.includes(input.developmentType) ?? true) &&
    (when.contractor?.includes(input.contractor) ?? true) &&
    (when.schemeLocation?.includes(input.schemeLocation) ?? true) &&
    (when.hasBasement === undefined || when.hasBasement === input.hasBasement) &&
    (when.hasFlatRoof === undefined || when.hasFlatRoof === input.hasFlatRoof)
  );
}

function valueOf(
  row: FrameworkRowRules,
  input: InsuranceFrameworkInput,
  limits: Pick<
    InsuranceFrameworkRecommendation,
    'professionalIndemnity' | 'publicLiability' | 'employersLiability'
  >,
): number | string {
  const source = row.value;
  if ('input' in source) return input[source.input];
  if ('limit' in source) return limits[source.limit];
  if ('percentOf' in source) {
    const scaled = PERCENT_SCALED.get(row) as number;
    return floorDiv(input[source.percentOf] * scaled, 100 * RATE_SCALE);
  }
  return source.text;
}

/**
 * The collecting validation. Each field is read once here (an input the fast path refused was read
 * once there too, so a getter runs twice) and the values read are what the rules and
 * the rows use: a getter or a Proxy that answers differently on a second read cannot slip a value
 * past the checks.
 */
function validate(input: unknown): InsuranceFrameworkInput {
  const issues: Issues = [];
  const record = readRecord(issues, '', input, FIELDS);
  const valid = record && {
    propertyType: readOption(issues, 'propertyType', record.propertyType, FRAMEWORK_PROPERTY_TYPES),
    contractValue: readWhole(
      issues,
      'contractValue',
      record.contractValue,
      CONTRACT_VALUE,
      'pounds',
    ),
    hasBasement: readBoolean(issues, 'hasBasement', record.hasBasement),
    developmentType: readOption(
      issues,
      'developmentType',
      record.developmentType,
      DEVELOPMENT_TYPES,
    ),
    gdv: readWhole(issues, 'gdv', record.gdv, GDV, 'pounds'),
    contractor: readOption(issues, 'contractor', record.contractor, CONTRACTORS),
    schemeLocation: readOption(issues, 'schemeLocation', record.schemeLocation, SCHEME_LOCATIONS),
    reinstatement: readWhole(
      issues,
      'reinstatement',
      record.reinstatement,
      REINSTATEMENT,
      'pounds',
    ),
    hasFlatRoof: readBoolean(issues, 'hasFlatRoof', record.hasFlatRoof),
  };
  throwIfAny(issues);
  return valid as InsuranceFrameworkInput;
}
