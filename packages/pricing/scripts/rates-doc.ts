/**
 * Renders docs/rates.md from the rate tables: every table, band, rule and limit, the formulas and
 * worked examples computed by the library itself, for an actuary to review. `rates.ts` writes it;
 * `rates-doc.test.ts` fails when the committed file differs.
 */
import { formatPounds } from '../src/api/format-pounds';
import { quoteBtrWarranty } from '../src/api/quote-btr-warranty';
import { quoteBuildingWarranty } from '../src/api/quote-building-warranty';
import { quoteContractorsAllRisks } from '../src/api/quote-contractors-all-risks';
import { RATE_TABLE_VERSION } from '../src/api/rate-table-version';
import { RATE_DECIMALS, RATE_SCALE } from '../src/core/decimal';
import { groupThousands } from '../src/core/group-thousands';
import {
  BTR_LIMITS,
  BUILDING_WARRANTY_LIMITS,
  CAR_LIMITS,
  FRAMEWORK_LIMITS,
  type SliderLimit,
} from '../src/limits';
import { BTR_TERMS, BUILD_TYPES, CAR_PROPERTY_TYPES, GUIDE_STAGES, STAGES } from '../src/options';
import {
  BTR_BASE_RATE,
  BTR_STAGE_RATES,
  IPT_RATE,
  LOSS_OF_RENT_TERM_RATES,
  PROGRAMME_CHARGE_PER_MONTH,
} from '../src/tables/btr-warranty';
import {
  BUILD_COST_BANDS,
  BUILD_TYPE_RATES,
  STAGE_RATES,
  UNITS_BANDS,
} from '../src/tables/building-warranty';
import { CAR_ASSUMPTIONS, CAR_RATES } from '../src/tables/contractors-all-risks';
import {
  EMPLOYERS_LIABILITY_LIMIT,
  PROFESSIONAL_INDEMNITY_BANDS,
  PUBLIC_LIABILITY_BANDS,
} from '../src/tables/framework-limits';
import {
  FRAMEWORK_ROWS,
  type FrameworkCondition,
  type FrameworkRowRules,
  type FrameworkValueSource,
} from '../src/tables/framework-rows';
import { insuranceGuide } from '../src/tables/insurance-guide';
import { RATES_PUBLISHED } from '../src/tables/published';
import type { RateBand } from '../src/tables/types';

const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map((cell) => cell.replace(/\|/g, '\\|')).join(' | ')} |`),
  ].join('\n');

const code = (text: string): string => `\`${text}\``;

/** "£500,000 to under £5,000,000"; the last band runs to the domain maximum. */
function bandRanges(
  bands: readonly { readonly from: number }[],
  max: number,
  show: (n: number) => string,
): string[] {
  return bands.map((band, i) => {
    const next = bands[i + 1];
    return next === undefined
      ? `${show(band.from)} to ${show(max)}`
      : `${show(band.from)} to under ${show(next.from)}`;
  });
}

function unitsRanges(bands: readonly RateBand[], max: number): string[] {
  return bands.map((band, i) => {
    const last = (bands[i + 1]?.from ?? max + 1) - 1;
    return last === band.from ? String(band.from) : `${band.from}–${last}`;
  });
}

function limitsTable(limits: Record<string, SliderLimit>, pounds: readonly string[]): string {
  const show = (field: string, n: number): string =>
    pounds.includes(field) ? formatPounds(n) : groupThousands(n);
  return table(
    ['Input', 'Minimum', 'Maximum', 'Screen step', 'Default'],
    Object.entries(limits).map(([field, limit]) => [
      code(field),
      show(field, limit.min),
      show(field, limit.max),
      show(field, limit.step),
      show(field, limit.default),
    ]),
  );
}

function condition(when: FrameworkCondition | undefined): string {
  if (when === undefined) return 'otherwise';
  const parts: string[] = [];
  const list = (field: string, values: readonly string[] | undefined): void => {
    if (values !== undefined)
      parts.push(`${code(field)} is ${values.map((v) => `“${v}”`).join(' or ')}`);
  };
  list('propertyType', when.propertyType);
  list('developmentType', when.developmentType);
  list('contractor', when.contractor);
  list('schemeLocation', when.schemeLocation);
  if (when.hasBasement !== undefined) parts.push(`${code('hasBasement')} is ${when.hasBasement}`);
  if (when.hasFlatRoof !== undefined) parts.push(`${code('hasFlatRoof')} is ${when.hasFlatRoof}`);
  return parts.join(' and ');
}

function valueText(source: FrameworkValueSource): string {
  if ('input' in source) return `the ${code(source.input)} input, in pounds`;
  if ('limit' in source) return `the ${code(source.limit)} limit above`;
  if ('percentOf' in source) {
    return `${source.rate}% of ${code(source.percentOf)}, floored to whole pounds`;
  }
  return `the text “${source.text}”`;
}

function frameworkRow(row: FrameworkRowRules, index: number): string {
  const singleBuyer = row.buyer.length === 1 && row.buyer[0]?.when === undefined;
  return [
    `### ${index + 1}. ${row.insurance}`,
    '',
    table(
      ['When', 'Requirement', 'Why'],
      row.requirement.map((rule, i) => [
        i === 0 && rule.when === undefined ? 'always' : condition(rule.when),
        rule.required,
        rule.why,
      ]),
    ),
    '',
    `Value: ${valueText(row.value)}${row.requirement.some((rule) => rule.required === 'Not required') ? ' (none when the row is “Not required”)' : ''}.`,
    '',
    singleBuyer
      ? `Buyer: ${row.buyer[0]?.buyer}.`
      : `Buyer: ${row.buyer.map((rule) => `${rule.buyer} ${rule.when === undefined ? 'otherwise' : `when ${condition(rule.when)}`}`).join('; ')}.`,
    '',
    'Notes (every note that applies is shown, in this order):',
    '',
    ...row.notes.map(
      (note) =>
        `- ${note.when === undefined ? '' : `*When ${condition(note.when)}:* `}${note.text}`,
    ),
  ].join('\n');
}

/** The whole of docs/rates.md. */
export function renderRatesDoc(): string {
  const bw = BUILDING_WARRANTY_LIMITS;
  const bwExamples = [
    {
      buildType: 'New Build',
      stage: 'Not Started',
      units: 3,
      sumInsured: 1_000_000,
      gdv: 2_000_000,
    },
    { buildType: 'New Build', stage: 'Not Started', units: 1, sumInsured: 750_000, gdv: 1_000_000 },
    {
      buildType: 'Conversion',
      stage: 'Part Complete',
      units: 60,
      sumInsured: 4_999_999,
      gdv: 8_000_000,
    },
    {
      buildType: 'Conversion',
      stage: 'Part Complete',
      units: 60,
      sumInsured: 5_000_000,
      gdv: 8_000_000,
    },
    {
      buildType: 'Conversion',
      stage: 'Completed',
      units: 8,
      sumInsured: 22_500_000,
      gdv: 30_000_000,
    },
  ] as const;
  const btrExamples = [
    { stage: 'Not Started', units: 100, sumInsured: 10_000_000, gdv: 30_000_000 },
    {
      stage: 'Part Complete',
      units: 250,
      sumInsured: 12_000_000,
      gdv: 30_000_000,
      lossOfRent: { anticipatedRentalIncome: 1_500_000, termMonths: 24, programmeMonths: 12 },
    },
    {
      stage: 'Completed',
      units: 400,
      sumInsured: 120_000_000,
      gdv: 200_000_000,
      lossOfRent: { anticipatedRentalIncome: 9_250_000, termMonths: 36, programmeMonths: 48 },
    },
  ] as const;

  const sections = [
    '# Rate tables',
    '',
    '<!-- Generated by `pnpm --filter @firm/pricing rates` from packages/pricing/src/tables. Do not edit: a test fails when this file and the tables differ. -->',
    '',
    `Rate table version: **${code(RATE_TABLE_VERSION)}** (published ${RATES_PUBLISHED}; the suffix is a hash of every table below, so any change to a rate, band, limit, rule or guide cell changes it). Every quote carries the version it was computed with.`,
    '',
    'These are the rules of `@firm/pricing` (packages/pricing), which the portal, the API and internal tools all use. They follow decisions.md §1 of the product specification.',
    '',
    '## How figures are computed',
    '',
    '- Money is whole pounds. Inputs in pounds must be whole numbers inside the limits below; nothing is rounded or clamped on the way in, and anything else is refused with every bad field listed.',
    `- Rates are written as the firm publishes them (${code("'1.13'")}, ${code("'0.0085'")}). Each is read once into an exact integer count of 1/${groupThousands(RATE_SCALE)} (at most ${RATE_DECIMALS} decimal places), so no figure passes through binary floating point: ${code('500,000 × 2.01 / 100')} is 10,050, not the 10,049 that doubles give.`,
    '- Every money result is floored to the pound (rounded down), exactly, at the step shown in each formula.',
    '- Percentages in results (rates and totals) print exactly as written here: 0.93 + 0.03 is 0.96, never 0.9600000000000001.',
    '',
    '## Building warranty',
    '',
    '```text',
    'totalPercentage = buildCost rate + buildType rate + stage rate + units rate',
    'estimate        = floor(sumInsured × totalPercentage / 100)',
    '```',
    '',
    'GDV is recorded with the quote but does not enter the price.',
    '',
    '### Build cost rate (% of the whole sum insured)',
    '',
    'The band applies to the whole sum insured; the bands are not marginal tiers. So the estimate drops at a band edge (see the worked examples: £4,999,999 costs more than £5,000,000), and within a band it never falls as the sum rises. The first band lies below the smallest sum insured accepted and is kept as the firm publishes it.',
    '',
    table(
      ['Sum insured', 'Rate %'],
      bandRanges(BUILD_COST_BANDS, bw.sumInsured.max, formatPounds).map((range, i) => [
        range,
        BUILD_COST_BANDS[i]?.rate ?? '',
      ]),
    ),
    '',
    '### Build type rate (%)',
    '',
    table(
      ['Build type', 'Rate %'],
      BUILD_TYPES.map((type) => [type, BUILD_TYPE_RATES[type]]),
    ),
    '',
    '### Stage rate (%)',
    '',
    table(
      ['Stage', 'Rate %'],
      STAGES.map((stage) => [stage, STAGE_RATES[stage]]),
    ),
    '',
    '### Units rate (%)',
    '',
    table(
      ['Units', 'Rate %'],
      unitsRanges(UNITS_BANDS, bw.units.max).map((range, i) => [range, UNITS_BANDS[i]?.rate ?? '']),
    ),
    '',
    '### Limits',
    '',
    limitsTable(bw, ['sumInsured', 'gdv']),
    '',
    '### Worked examples',
    '',
    table(
      [
        'Build type',
        'Stage',
        'Units',
        'Sum insured',
        'Rates (build cost + type + stage + units)',
        'Total %',
        'Estimate',
      ],
      bwExamples.map((input) => {
        const quote = quoteBuildingWarranty(input);
        const { rates } = quote;
        return [
          input.buildType,
          input.stage,
          String(input.units),
          formatPounds(input.sumInsured),
          `${rates.buildCost} + ${rates.buildType} + ${rates.stage} + ${rates.units}`,
          String(quote.totalPercentage),
          formatPounds(quote.estimate),
        ];
      }),
    ),
    '',
    'The second example is one where plain doubles floor a pound low (750,000 × 1.16 / 100 gives 8,699.999…).',
    '',
    '## BTR warranty and loss of rent',
    '',
    '```text',
    `totalPercentage   = ${BTR_BASE_RATE} + stage rate`,
    'warrantyPremium   = floor(sumInsured × totalPercentage / 100)',
    `lossOfRentPremium = floor(anticipatedRentalIncome × term rate × termMonths / 12) + ${groupThousands(PROGRAMME_CHARGE_PER_MONTH)} × programmeMonths`,
    '                    (0 when loss of rent is not included)',
    'subTotal          = warrantyPremium + lossOfRentPremium',
    `ipt               = floor(subTotal × ${IPT_RATE} / 100)`,
    'total             = subTotal + ipt',
    '```',
    '',
    'Every line is whole pounds and the lines add up. Units and GDV are recorded but do not enter the price. The programme of works must be a whole multiple of 6 months.',
    '',
    '### Rates',
    '',
    table(
      ['Stage', 'Base %', 'Stage %', 'Total %'],
      STAGES.map((stage) => [
        stage,
        BTR_BASE_RATE,
        BTR_STAGE_RATES[stage],
        String(
          quoteBtrWarranty({
            stage,
            units: BTR_LIMITS.units.min,
            sumInsured: BTR_LIMITS.sumInsured.min,
            gdv: BTR_LIMITS.gdv.min,
          }).totalPercentage,
        ),
      ]),
    ),
    '',
    table(
      ['Loss of rent term', 'Rate (fraction of the income a year)'],
      BTR_TERMS.map((term) => [`${term} months`, LOSS_OF_RENT_TERM_RATES[term]]),
    ),
    '',
    table(
      ['Other constants', 'Value'],
      [
        ['Programme of works charge', `${formatPounds(PROGRAMME_CHARGE_PER_MONTH)} a month`],
        ['Insurance premium tax (IPT)', `${IPT_RATE}% of the sub-total, floored`],
      ],
    ),
    '',
    '### Limits',
    '',
    limitsTable(BTR_LIMITS, ['sumInsured', 'gdv', 'anticipatedRentalIncome']),
    '',
    'Loss of rent terms: 12, 24 or 36 months.',
    '',
    '### Worked examples',
    '',
    table(
      [
        'Stage',
        'Sum insured',
        'Loss of rent',
        'Warranty',
        'Loss of rent premium',
        'Sub-total',
        'IPT',
        'Total',
      ],
      btrExamples.map((input) => {
        const quote = quoteBtrWarranty(input);
        const lossOfRent = 'lossOfRent' in input ? input.lossOfRent : undefined;
        return [
          input.stage,
          formatPounds(input.sumInsured),
          lossOfRent === undefined
            ? 'none'
            : `${formatPounds(lossOfRent.anticipatedRentalIncome)} a year, ${lossOfRent.termMonths} months, programme ${lossOfRent.programmeMonths} months`,
          formatPounds(quote.warrantyPremium),
          formatPounds(quote.lossOfRentPremium),
          formatPounds(quote.subTotal),
          formatPounds(quote.ipt),
          formatPounds(quote.total),
        ];
      }),
    ),
    '',
    '## Contractors all risks',
    '',
    '```text',
    'low / medium / high = floor(contractWorksValue × rate / 100)',
    '```',
    '',
    table(
      ['Property type', 'Low %', 'Medium %', 'High %', `On ${formatPounds(1_000_000)}`],
      CAR_PROPERTY_TYPES.map((type) => {
        const quote = quoteContractorsAllRisks({
          propertyType: type,
          contractWorksValue: 1_000_000,
        });
        return [
          type,
          CAR_RATES[type].low,
          CAR_RATES[type].medium,
          CAR_RATES[type].high,
          `${formatPounds(quote.low)} / ${formatPounds(quote.medium)} / ${formatPounds(quote.high)}`,
        ];
      }),
    ),
    '',
    `Assumptions shown with every estimate: ${CAR_ASSUMPTIONS.join(' ')}`,
    '',
    '### Limits',
    '',
    limitsTable(CAR_LIMITS, ['contractWorksValue']),
    '',
    '## Insurance framework',
    '',
    'The framework recommends three liability limits keyed on the contract value, and for each of 15 insurances whether it is required, its value, who buys it, notes and why. For each row the first rule whose condition matches applies.',
    '',
    '### Limits keyed on the contract value',
    '',
    table(
      ['Contract value', 'Professional indemnity'],
      bandRanges(
        PROFESSIONAL_INDEMNITY_BANDS,
        FRAMEWORK_LIMITS.contractValue.max,
        formatPounds,
      ).map((range, i) => [
        range.replace(/^£0 to under/, 'Under'),
        `${i === 0 ? 'at least ' : ''}${formatPounds(PROFESSIONAL_INDEMNITY_BANDS[i]?.limit ?? 0)}`,
      ]),
    ),
    '',
    table(
      ['Contract value', 'Public liability'],
      bandRanges(PUBLIC_LIABILITY_BANDS, FRAMEWORK_LIMITS.contractValue.max, formatPounds).map(
        (range, i) => [
          range.replace(/^£0 to under/, 'Under'),
          formatPounds(PUBLIC_LIABILITY_BANDS[i]?.limit ?? 0),
        ],
      ),
    ),
    '',
    `Employers liability: ${formatPounds(EMPLOYERS_LIABILITY_LIMIT)} whatever the contract value.`,
    '',
    '### Input limits',
    '',
    limitsTable(FRAMEWORK_LIMITS, ['contractValue', 'gdv', 'reinstatement']),
    '',
    ...(FRAMEWORK_ROWS as readonly FrameworkRowRules[]).flatMap((row, i) => [
      frameworkRow(row, i),
      '',
    ]),
    '## Insurance guide',
    '',
    'Who buys each insurance at each stage of a development (empty: not needed at that stage).',
    '',
    table(
      ['Insurance', ...GUIDE_STAGES],
      insuranceGuide.map((row) => [
        row.insurance,
        ...GUIDE_STAGES.map((stage) => row.stages[stage] ?? ''),
      ]),
    ),
    '',
  ];
  return sections.join('\n');
}
