/**
 * An independent, readable reference for the tests, written straight from decisions.md §1 with its
 * own copy of every rate: it shares no code and no table with the library, so a wrong rate in a
 * table or a wrong step in the arithmetic both show up as a difference.
 *
 * Two flavours: decimal.js (the readable one, for random inputs) and BigInt rationals (the fast
 * one, for the exhaustive slider grids). Both are exact.
 */
import Decimal from 'decimal.js';

/** A private decimal.js: floor rounding, ample precision; never the global Decimal.set. */
const D = Decimal.clone({ precision: 60, rounding: Decimal.ROUND_FLOOR });

// ---- decisions.md §1, as written there --------------------------------------------------------

const buildCostRate = (sumInsured: number): string =>
  sumInsured < 500_000
    ? '1.23'
    : sumInsured < 5_000_000
      ? '1.13'
      : sumInsured < 20_000_000
        ? '1.03'
        : sumInsured < 25_000_000
          ? '0.93'
          : '0.83';
const buildTypeRate = (buildType: string): string =>
  ({ 'New Build': '0', Conversion: '0.25' })[buildType] as string;
const stageRate = (stage: string): string =>
  ({ 'Not Started': '0', 'Part Complete': '0.25', Completed: '0.5' })[stage] as string;
const unitsRate = (units: number): string =>
  units <= 1 ? '0.03' : units <= 5 ? '0.05' : units <= 10 ? '0.06' : units <= 50 ? '0.05' : '0';
const btrStageRate = (stage: string): string =>
  ({ 'Not Started': '0', 'Part Complete': '0.31', Completed: '0.51' })[stage] as string;
const termRate = (termMonths: number): string =>
  ({ 12: '0.0085', 24: '0.0072', 36: '0.0064' })[termMonths] as string;
const carRates = (propertyType: string): readonly [string, string, string] =>
  ({
    'New Build Residential': ['0.25', '0.3', '0.4'],
    'Residential Conversion': ['0.3', '0.35', '0.4'],
    'New Build Commercial': ['0.25', '0.3', '0.4'],
    'Commercial Conversion': ['0.35', '0.4', '0.45'],
  })[propertyType] as unknown as readonly [string, string, string];

// ---- decimal.js reference ---------------------------------------------------------------------

export interface BuildingWarrantyReference {
  rates: { buildCost: string; buildType: string; stage: string; units: string };
  totalPercentage: string;
  estimate: string;
}

export function referenceBuildingWarranty(input: {
  buildType: string;
  stage: string;
  units: number;
  sumInsured: number;
}): BuildingWarrantyReference {
  const rates = {
    buildCost: buildCostRate(input.sumInsured),
    buildType: buildTypeRate(input.buildType),
    stage: stageRate(input.stage),
    units: unitsRate(input.units),
  };
  const total = new D(rates.buildCost).plus(rates.buildType).plus(rates.stage).plus(rates.units);
  return {
    rates,
    totalPercentage: total.toString(),
    estimate: new D(input.sumInsured).times(total).div(100).floor().toFixed(0),
  };
}

export interface BtrReference {
  totalPercentage: string;
  lossOfRentTerm: string | null;
  warrantyPremium: string;
  lossOfRentPremium: string;
  subTotal: string;
  ipt: string;
  total: string;
}

export function referenceBtrWarranty(input: {
  stage: string;
  sumInsured: number;
  lossOfRent?: { anticipatedRentalIncome: number; termMonths: number; programmeMonths: number };
}): BtrReference {
  const total = new D('0.85').plus(btrStageRate(input.stage));
  const warranty = new D(input.sumInsured).times(total).div(100).floor();
  const lossOfRent = input.lossOfRent;
  const lossOfRentPremium =
    lossOfRent === undefined
      ? new D(0)
      : new D(lossOfRent.anticipatedRentalIncome)
          .times(termRate(lossOfRent.termMonths))
          .times(lossOfRent.termMonths)
          .div(12)
          .floor()
          .plus(new D(2000).times(lossOfRent.programmeMonths));
  const subTotal = warranty.plus(lossOfRentPremium);
  const ipt = subTotal.times(12).div(100).floor();
  return {
    totalPercentage: total.toString(),
    lossOfRentTerm: lossOfRent === undefined ? null : termRate(lossOfRent.termMonths),
    warrantyPremium: warranty.toFixed(0),
    lossOfRentPremium: lossOfRentPremium.toFixed(0),
    subTotal: subTotal.toFixed(0),
    ipt: ipt.toFixed(0),
    total: subTotal.plus(ipt).toFixed(0),
  };
}

export function referenceContractorsAllRisks(input: {
  propertyType: string;
  contractWorksValue: number;
}): { rates: readonly [string, string, string]; premiums: [string, string, string] } {
  const rates = carRates(input.propertyType);
  const premium = (rate: string): string =>
    new D(input.contractWorksValue).times(rate).div(100).floor().toFixed(0);
  return { rates, premiums: [premium(rates[0]), premium(rates[1]), premium(rates[2])] };
}

// ---- BigInt rational reference (fast, for the exhaustive grids) -------------------------------

/** A decimal string as a rational n / 10^4 with n a BigInt (every rate has at most 4 places). */
export function rational(rate: string): bigint {
  const [whole, fraction = ''] = rate.split('.');
  return BigInt(whole as string) * 10_000n + BigInt(fraction.padEnd(4, '0'));
}

/** floor(sumInsured × totalPercentage / 100) with every rate as a BigInt rational. */
export function bigIntBuildingWarrantyEstimate(
  buildType: string,
  stage: string,
  units: number,
  sumInsured: number,
): bigint {
  const total =
    rational(buildCostRate(sumInsured)) +
    rational(buildTypeRate(buildType)) +
    rational(stageRate(stage)) +
    rational(unitsRate(units));
  return (BigInt(sumInsured) * total) / 1_000_000n;
}

export function bigIntBtrWarrantyPremium(stage: string, sumInsured: number): bigint {
  return (BigInt(sumInsured) * (rational('0.85') + rational(btrStageRate(stage)))) / 1_000_000n;
}

export function bigIntLossOfRentPremium(
  anticipatedRentalIncome: number,
  termMonths: number,
  programmeMonths: number,
): bigint {
  return (
    (BigInt(anticipatedRentalIncome) * rational(termRate(termMonths)) * BigInt(termMonths)) /
      (12n * 10_000n) +
    2000n * BigInt(programmeMonths)
  );
}

export function bigIntIpt(subTotal: bigint): bigint {
  return (subTotal * 12n) / 100n;
}

export function bigIntCarPremiums(propertyType: string, value: number): [bigint, bigint, bigint] {
  const [low, medium, high] = carRates(propertyType);
  const premium = (rate: string): bigint => (BigInt(value) * rational(rate)) / 1_000_000n;
  return [premium(low), premium(medium), premium(high)];
}

// ---- insurance framework, decisions.md §1 rows 1–15 -------------------------------------------

export interface FrameworkReferenceInput {
  propertyType: string;
  contractValue: number;
  hasBasement: boolean;
  developmentType: string;
  gdv: number;
  contractor: string;
  schemeLocation: string;
  reinstatement: number;
  hasFlatRoof: boolean;
}

export interface FrameworkReferenceRow {
  required: string;
  value: number | 'text' | null;
  buyer: string;
}

/** Limits keyed on the contract value, as decisions.md writes them. */
export function referenceLimits(contractValue: number): {
  professionalIndemnity: number;
  publicLiability: number;
  employersLiability: number;
} {
  return {
    professionalIndemnity:
      contractValue < 5_000_000 ? 5_000_000 : contractValue < 25_000_000 ? 10_000_000 : 15_000_000,
    publicLiability:
      contractValue < 1_000_000 ? 2_000_000 : contractValue < 5_000_000 ? 5_000_000 : 10_000_000,
    employersLiability: 10_000_000,
  };
}

/**
 * The 15 rows' requirement, value ('text' where decisions.md gives a text or leaves the value to
 * the developers) and buyer.
 */
export function referenceFrameworkRows(input: FrameworkReferenceInput): FrameworkReferenceRow[] {
  const developer = input.contractor === 'Developer as contractor';
  const limits = referenceLimits(input.contractValue);
  const existing = [
    'Conversion',
    'Fit-Out',
    'New Build (including exisiting structures on site)',
  ].includes(input.developmentType);
  const structural =
    input.developmentType === 'Fit-Out'
      ? 'Not required'
      : input.propertyType === 'Commercial- Other'
        ? 'Recommended'
        : 'Required';
  return [
    {
      required: 'Required',
      value: input.contractValue,
      buyer: developer ? 'Property Developer' : 'Either or Joint Policy',
    },
    {
      required: existing ? 'Required' : 'Not required',
      value: existing ? input.reinstatement : null,
      buyer: 'Property Developer',
    },
    { required: 'Required', value: limits.publicLiability, buyer: 'Both needed' },
    {
      required: 'Required',
      value: 10_000_000,
      buyer: developer ? 'Property Developer' : 'Contractor',
    },
    {
      required: 'Required',
      value: limits.professionalIndemnity,
      buyer:
        input.contractor === 'Main contractor (JCT Design and Build)'
          ? 'Contractor'
          : 'Both needed',
    },
    {
      required: input.hasBasement
        ? 'Required'
        : input.schemeLocation === 'City Centre'
          ? 'Recommended'
          : 'Optional',
      value: 'text',
      buyer: 'Either or Joint Policy',
    },
    {
      required: structural,
      value: structural === 'Not required' ? null : input.contractValue,
      buyer: 'Property Developer',
    },
    {
      required: ['Commercial- BTR', 'Commercial- PBSA'].includes(input.propertyType)
        ? 'Required'
        : 'Optional',
      value: 'text',
      buyer: 'Property Developer',
    },
    { required: 'Required', value: limits.publicLiability, buyer: 'Property Developer' },
    { required: 'Recommended', value: 'text', buyer: 'Property Developer' },
    {
      required: input.schemeLocation === 'Green' ? 'Optional' : 'Recommended',
      value: 'text',
      buyer: 'Property Developer',
    },
    {
      required: input.schemeLocation === 'City Centre' ? 'Recommended' : 'Optional',
      value: 'text',
      buyer: 'Either or Joint Policy',
    },
    { required: 'Required', value: 'text', buyer: developer ? 'Property Developer' : 'Contractor' },
    {
      required: 'Recommended',
      value: Number((BigInt(input.contractValue) * 10n) / 100n),
      buyer: developer ? 'Not required' : 'Contractor',
    },
    { required: 'Required', value: input.gdv, buyer: 'Property Developer' },
  ];
}
