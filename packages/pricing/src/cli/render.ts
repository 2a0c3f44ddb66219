import { formatPounds } from '../api/format-pounds';
import type { BtrWarrantyInput, BtrWarrantyQuote } from '../api/quote-btr-warranty';
import type { BuildingWarrantyInput, BuildingWarrantyQuote } from '../api/quote-building-warranty';
import type {
  ContractorsAllRisksInput,
  ContractorsAllRisksQuote,
} from '../api/quote-contractors-all-risks';
import type {
  InsuranceFrameworkInput,
  InsuranceFrameworkRecommendation,
} from '../api/recommend-insurance-framework';
import { CAR_ASSUMPTIONS } from '../tables/contractors-all-risks';
import { IPT_RATE } from '../tables/btr-warranty';
import { PROFESSIONAL_INDEMNITY_BANDS } from '../tables/framework-limits';

type Line = readonly [label: string, value: string] | string;

/** Lay out label/value lines in two aligned columns; a plain string is a heading. */
function columns(lines: readonly Line[]): string {
  const width = Math.max(...lines.map((line) => (typeof line === 'string' ? 0 : line[0].length)));
  return lines
    .map((line) => (typeof line === 'string' ? line : `  ${line[0].padEnd(width)}  ${line[1]}`))
    .join('\n');
}

const percent = (n: number): string => `${n}%`;

export function renderBuildingWarranty(
  input: BuildingWarrantyInput,
  quote: BuildingWarrantyQuote,
): string {
  return columns([
    'Building warranty: indicative quote',
    ['Build type', input.buildType],
    ['Stage', input.stage],
    ['Units', String(input.units)],
    ['Sum insured', formatPounds(input.sumInsured)],
    ['GDV', formatPounds(input.gdv)],
    'Rates (% of the sum insured)',
    ['Build cost', percent(quote.rates.buildCost)],
    ['Build type', percent(quote.rates.buildType)],
    ['Stage', percent(quote.rates.stage)],
    ['Units', percent(quote.rates.units)],
    ['Total', percent(quote.totalPercentage)],
    'Result',
    ['Estimate', formatPounds(quote.estimate)],
    ['Rate tables', quote.rateTableVersion],
  ]);
}

export function renderBtrWarranty(input: BtrWarrantyInput, quote: BtrWarrantyQuote): string {
  const lossOfRent = input.lossOfRent;
  return columns([
    'BTR warranty: indicative quote',
    ['Stage', input.stage],
    ['Units', String(input.units)],
    ['Sum insured', formatPounds(input.sumInsured)],
    ['GDV', formatPounds(input.gdv)],
    ...(lossOfRent === undefined
      ? [['Loss of rent', 'not included'] as const]
      : [
          ['Rental income', `${formatPounds(lossOfRent.anticipatedRentalIncome)} a year`] as const,
          ['Term', `${lossOfRent.termMonths} months`] as const,
          ['Programme', `${lossOfRent.programmeMonths} months`] as const,
        ]),
    'Rates',
    ['Base', percent(quote.rates.base)],
    ['Stage', percent(quote.rates.stage)],
    ['Total', percent(quote.totalPercentage)],
    [
      'Loss of rent term',
      quote.rates.lossOfRentTerm === null
        ? 'n/a'
        : `${quote.rates.lossOfRentTerm} of the income a year`,
    ],
    'Premium',
    ['Warranty', formatPounds(quote.warrantyPremium)],
    ['Loss of rent', formatPounds(quote.lossOfRentPremium)],
    ['Sub-total', formatPounds(quote.subTotal)],
    [`IPT (${IPT_RATE}%)`, formatPounds(quote.ipt)],
    ['Total', formatPounds(quote.total)],
    ['Rate tables', quote.rateTableVersion],
  ]);
}

export function renderContractorsAllRisks(
  input: ContractorsAllRisksInput,
  quote: ContractorsAllRisksQuote,
): string {
  return columns([
    'Contractors all risks: indicative estimates',
    ['Property type', input.propertyType],
    ['Contract works', formatPounds(input.contractWorksValue)],
    'Estimates (rate: % of the contract works value)',
    ['Low', `${formatPounds(quote.low)}  at ${percent(quote.rates.low)}`],
    ['Medium', `${formatPounds(quote.medium)}  at ${percent(quote.rates.medium)}`],
    ['High', `${formatPounds(quote.high)}  at ${percent(quote.rates.high)}`],
    `Assumes: ${CAR_ASSUMPTIONS.join(' ')}`,
    ['Rate tables', quote.rateTableVersion],
  ]);
}

export function renderFramework(
  input: InsuranceFrameworkInput,
  recommendation: InsuranceFrameworkRecommendation,
): string {
  const head = columns([
    'Insurance framework: recommendation',
    ['Property type', input.propertyType],
    ['Development type', input.developmentType],
    ['Contractor', input.contractor],
    ['Scheme location', input.schemeLocation],
    ['Contract value', formatPounds(input.contractValue)],
    ['GDV', formatPounds(input.gdv)],
    ['Reinstatement', formatPounds(input.reinstatement)],
    ['Basement', input.hasBasement ? 'yes' : 'no'],
    ['Flat roof', input.hasFlatRoof ? 'yes' : 'no'],
    'Limits',
    [
      'Professional indemnity',
      // Only the lowest band's limit is a minimum ("at least £5m", decisions.md §1).
      `${input.contractValue < PROFESSIONAL_INDEMNITY_BANDS[1].from ? 'at least ' : ''}${formatPounds(recommendation.professionalIndemnity)}`,
    ],
    ['Public liability', formatPounds(recommendation.publicLiability)],
    ['Employers liability', formatPounds(recommendation.employersLiability)],
  ]);
  const rows = recommendation.rows.map((row, i) => {
    const value =
      row.value === null
        ? '–'
        : typeof row.value === 'number'
          ? formatPounds(row.value)
          : row.value;
    return [
      `${String(i + 1).padStart(2)}. ${row.insurance}`,
      `    ${row.required} · ${value} · buyer: ${row.buyer}`,
      `    Why: ${row.why}`,
      `    Notes: ${row.notes}`,
    ].join('\n');
  });
  return [head, 'Insurances', ...rows, `Rate tables  ${recommendation.rateTableVersion}`].join(
    '\n',
  );
}
