import { RATE_TABLE_VERSION } from '../api/rate-table-version';
import { quoteBtrWarranty, type LossOfRentInput } from '../api/quote-btr-warranty';
import { quoteBuildingWarranty } from '../api/quote-building-warranty';
import { quoteContractorsAllRisks } from '../api/quote-contractors-all-risks';
import { describeValue } from '../core/issues';
import type { SliderLimit } from '../limits';
import { readBoolean } from './args';
import { PRODUCTS, type OptionSpec } from './products';
import type { CliIo } from './run';

export type SweepProduct = 'building-warranty' | 'btr' | 'car';

/** Options a sweep takes besides the product's own (which fix one dimension each). */
export const SWEEP_EXTRA_OPTIONS: Record<SweepProduct, readonly string[]> = {
  'building-warranty': [],
  btr: ['loss-of-rent'],
  car: [],
};

const FLUSH_AT = 1 << 16;

/** Every screen step of a slider, min to max. */
export function sliderSteps(limit: SliderLimit): number[] {
  const steps: number[] = [];
  for (let value = limit.min; value <= limit.max; value += limit.step) steps.push(value);
  return steps;
}

/**
 * Print the priced grid of a product as CSV: every option and every slider step of the inputs that
 * enter the price. Inputs that do not (GDV; BTR units) are held at their default. Giving one of the
 * product's options fixes that dimension to the value given.
 */
export async function sweep(
  product: SweepProduct,
  given: ReadonlyMap<OptionSpec, unknown>,
  raw: ReadonlyMap<string, string>,
  io: CliIo,
): Promise<number> {
  const specs: readonly OptionSpec[] = PRODUCTS[product];
  const spec = (flag: string): OptionSpec => specs.find((s) => s.flag === flag) as OptionSpec;
  /** The values of one dimension: the one given, or the whole grid. */
  const grid = (flag: string): unknown[] => {
    const option = spec(flag);
    if (given.has(option)) return [given.get(option)];
    if (option.choices !== undefined) return [...option.choices];
    return sliderSteps(option.limit as SliderLimit);
  };
  /** A dimension that does not enter the price: the value given, or the default. */
  const held = (flag: string): unknown => {
    const option = spec(flag);
    return given.has(option) ? given.get(option) : (option.limit as SliderLimit).default;
  };

  let buffer = '';
  let rows = 0;
  /** Add a row; returns a promise only when the buffer was flushed and the stream must drain. */
  const emit = (cells: readonly unknown[]): void | Promise<void> => {
    buffer += `${cells.map(csvCell).join(',')}\n`;
    rows += 1;
    if (buffer.length < FLUSH_AT) return undefined;
    const chunk = buffer;
    buffer = '';
    return io.write(chunk);
  };

  if (product === 'building-warranty') {
    buffer +=
      'build_type,stage,units,sum_insured,build_cost_rate,build_type_rate,stage_rate,units_rate,total_percentage,estimate\n';
    const gdv = held('gdv');
    const sums = grid('sum-insured');
    for (const buildType of grid('build-type'))
      for (const stage of grid('stage'))
        for (const units of grid('units'))
          for (const sumInsured of sums) {
            const quote = quoteBuildingWarranty({
              buildType,
              stage,
              units,
              sumInsured,
              gdv,
            } as never);
            const { rates } = quote;
            const pending = emit([
              buildType,
              stage,
              units,
              sumInsured,
              rates.buildCost,
              rates.buildType,
              rates.stage,
              rates.units,
              quote.totalPercentage,
              quote.estimate,
            ]);
            if (pending !== undefined) await pending;
          }
  } else if (product === 'btr') {
    buffer +=
      'stage,sum_insured,anticipated_rental_income,term_months,programme_months,total_percentage,loss_of_rent_term_rate,warranty_premium,loss_of_rent_premium,sub_total,ipt,total\n';
    const lossOfRentFlags = ['anticipated-rental-income', 'term-months', 'programme-months'];
    const wanted = raw.get('loss-of-rent');
    const include = wanted === undefined ? undefined : readBoolean(wanted);
    if (typeof include === 'string') {
      io.error(`error: --loss-of-rent: Must be yes or no (got ${describeValue(wanted)}).`);
      return 2;
    }
    const lossOfRentGiven = lossOfRentFlags.some((flag) => given.has(spec(flag)));
    if (include === false && lossOfRentGiven) {
      io.error(
        `error: --loss-of-rent no leaves out loss of rent; do not also give ${lossOfRentFlags.map((flag) => `--${flag}`).join(', ')}.`,
      );
      return 2;
    }
    const options: (LossOfRentInput | undefined)[] = [];
    if (include !== true && !lossOfRentGiven) options.push(undefined);
    if (include !== false) {
      for (const anticipatedRentalIncome of grid('anticipated-rental-income'))
        for (const termMonths of grid('term-months'))
          for (const programmeMonths of grid('programme-months'))
            options.push({
              anticipatedRentalIncome,
              termMonths,
              programmeMonths,
            } as LossOfRentInput);
    }
    const units = held('units');
    const gdv = held('gdv');
    const sums = grid('sum-insured');
    for (const stage of grid('stage'))
      for (const sumInsured of sums)
        for (const lossOfRent of options) {
          const input = {
            stage,
            units,
            sumInsured,
            gdv,
            ...(lossOfRent === undefined ? {} : { lossOfRent }),
          };
          const quote = quoteBtrWarranty(input as never);
          const pending = emit([
            stage,
            sumInsured,
            lossOfRent?.anticipatedRentalIncome ?? '',
            lossOfRent?.termMonths ?? '',
            lossOfRent?.programmeMonths ?? '',
            quote.totalPercentage,
            quote.rates.lossOfRentTerm ?? '',
            quote.warrantyPremium,
            quote.lossOfRentPremium,
            quote.subTotal,
            quote.ipt,
            quote.total,
          ]);
          if (pending !== undefined) await pending;
        }
  } else {
    buffer += 'property_type,contract_works_value,low_rate,medium_rate,high_rate,low,medium,high\n';
    for (const propertyType of grid('property-type'))
      for (const contractWorksValue of grid('contract-works-value')) {
        const quote = quoteContractorsAllRisks({ propertyType, contractWorksValue } as never);
        const { rates } = quote;
        const pending = emit([
          propertyType,
          contractWorksValue,
          rates.low,
          rates.medium,
          rates.high,
          quote.low,
          quote.medium,
          quote.high,
        ]);
        if (pending !== undefined) await pending;
      }
  }
  await io.write(buffer);
  io.error(
    `firm-pricing: ${rows} ${rows === 1 ? 'row' : 'rows'} priced with rate tables ${RATE_TABLE_VERSION}`,
  );
  return 0;
}

/** A CSV cell: numbers as they print, text quoted only when it must be. */
function csvCell(value: unknown): string {
  const text = String(value);
  return /[",\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
