import { quoteBtrWarranty, type BtrWarrantyInput } from '../api/quote-btr-warranty';
import { quoteBuildingWarranty, type BuildingWarrantyInput } from '../api/quote-building-warranty';
import {
  quoteContractorsAllRisks,
  type ContractorsAllRisksInput,
} from '../api/quote-contractors-all-risks';
import {
  recommendInsuranceFramework,
  type InsuranceFrameworkInput,
} from '../api/recommend-insurance-framework';
import { describeValue, printable } from '../core/issues';
import { PricingInputError } from '../core/pricing-input-error';
import { parseArgs, readBoolean, readNumber, type ParsedArgs } from './args';
import { HELP } from './help';
import { PRODUCTS, type OptionSpec, type Product } from './products';
import {
  renderBtrWarranty,
  renderBuildingWarranty,
  renderContractorsAllRisks,
  renderFramework,
} from './render';
import { sweep, SWEEP_EXTRA_OPTIONS, type SweepProduct } from './sweep';

/** Where the tool writes: `write` is stdout (may wait for the stream to drain), `error` stderr. */
export interface CliIo {
  write(text: string): void | Promise<void>;
  error(text: string): void;
}

/** Exit codes: success, an unexpected failure, bad usage or bad input. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

const QUOTE_PRODUCTS = ['building-warranty', 'btr', 'car'] as const;

/**
 * Run the `firm-pricing` command line.
 *
 * @param args The arguments after the program name.
 * @param io Where to write.
 *
 * @returns The exit code.
 */
export async function run(args: readonly string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args);
  const [command, product, ...extra] = parsed.positionals;
  if (parsed.switches.has('help') || command === 'help') {
    await io.write(HELP);
    return EXIT_OK;
  }
  if (command === undefined) return usage(io, ['No command given.']);
  if (parsed.problems.length > 0) return usage(io, parsed.problems);
  if (extra.length > 0) {
    return usage(io, [`Unexpected argument ${describeValue(extra[0] as string)}.`]);
  }
  if ((command === 'quote' || command === 'recommend') && parsed.switches.has('csv')) {
    // A script asking for CSV must not be handed the text layout with status 0.
    return usage(io, [`${command} prints text, or JSON with --json; --csv is for sweep.`]);
  }
  try {
    if (command === 'quote' && isOneOf(product, QUOTE_PRODUCTS)) {
      return await quote(product, parsed, io);
    }
    if (command === 'recommend' && product === 'framework') {
      return await recommend(parsed, io);
    }
    if (command === 'sweep' && isOneOf(product, QUOTE_PRODUCTS)) {
      if (parsed.switches.has('json')) return usage(io, ['sweep prints CSV; --json is for quote.']);
      const options = readOptions(product, parsed, SWEEP_EXTRA_OPTIONS[product]);
      if (typeof options === 'string') return usage(io, [options]);
      return await sweep(product, options, parsed.options, io);
    }
  } catch (error) {
    if (error instanceof PricingInputError) {
      return inputError(product as Product, parsed, error, io);
    }
    throw error;
  }
  const known = {
    quote: QUOTE_PRODUCTS.join('|'),
    recommend: 'framework',
    sweep: QUOTE_PRODUCTS.join('|'),
  } as Record<string, string>;
  return usage(io, [
    Object.hasOwn(known, command)
      ? `${command} needs one of ${known[command]} (got ${describeValue(product ?? '')}).`
      : `Unknown command ${describeValue(command)}.`,
  ]);
}

async function quote(
  product: (typeof QUOTE_PRODUCTS)[number],
  parsed: ParsedArgs,
  io: CliIo,
): Promise<number> {
  const options = readOptions(product, parsed, []);
  if (typeof options === 'string') return usage(io, [options]);
  const input = toInput(options);
  const json = parsed.switches.has('json');
  let text: string;
  let result: unknown;
  if (product === 'building-warranty') {
    const valid = input as unknown as BuildingWarrantyInput;
    const quoted = quoteBuildingWarranty(valid);
    result = quoted;
    text = renderBuildingWarranty(valid, quoted);
  } else if (product === 'btr') {
    const valid = input as unknown as BtrWarrantyInput;
    const quoted = quoteBtrWarranty(valid);
    result = quoted;
    text = renderBtrWarranty(valid, quoted);
  } else {
    const valid = input as unknown as ContractorsAllRisksInput;
    const quoted = quoteContractorsAllRisks(valid);
    result = quoted;
    text = renderContractorsAllRisks(valid, quoted);
  }
  await io.write(`${json ? JSON.stringify(result, null, 2) : text}\n`);
  return EXIT_OK;
}

async function recommend(parsed: ParsedArgs, io: CliIo): Promise<number> {
  const options = readOptions('framework', parsed, []);
  if (typeof options === 'string') return usage(io, [options]);
  const input = toInput(options) as unknown as InsuranceFrameworkInput;
  const recommendation = recommendInsuranceFramework(input);
  await io.write(
    `${parsed.switches.has('json') ? JSON.stringify(recommendation, null, 2) : renderFramework(input, recommendation)}\n`,
  );
  return EXIT_OK;
}

/** The product's options that were given, read as numbers/booleans/labels; or a usage problem. */
function readOptions(
  product: Product,
  parsed: ParsedArgs,
  extraFlags: readonly string[],
): Map<OptionSpec, unknown> | string {
  const specs: readonly OptionSpec[] = PRODUCTS[product];
  const values = new Map<OptionSpec, unknown>();
  for (const [flag, text] of parsed.options) {
    const spec = specs.find((candidate) => candidate.flag === flag);
    if (spec === undefined) {
      if (extraFlags.includes(flag)) continue;
      const known = [...specs.map((candidate) => candidate.flag), ...extraFlags];
      return `--${printable(flag)} is not an option of ${product} (expected ${known.map((f) => `--${f}`).join(', ')}).`;
    }
    const value =
      spec.kind === 'number'
        ? readNumber(text)
        : spec.kind === 'boolean'
          ? readBoolean(text)
          : text;
    // A fraction finer than a double holds (24.000000000000001) reads as a whole number: refuse
    // it rather than price a value that was not typed.
    if (typeof value === 'number' && Number.isInteger(value) && /\.\d*[1-9]/.test(text)) {
      return `--${spec.flag}: Must be a whole number (got ${printable(text)}).`;
    }
    values.set(spec, value);
  }
  return values;
}

/** Build the library's input object from the options (`lossOfRent.x` fields are grouped). */
export function toInput(values: ReadonlyMap<OptionSpec, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [spec, value] of values) {
    const [group, field] = spec.field.split('.') as [string, string | undefined];
    if (field === undefined) {
      input[group] = value;
    } else {
      const nested = (input[group] ?? {}) as Record<string, unknown>;
      nested[field] = value;
      input[group] = nested;
    }
  }
  return input;
}

function inputError(
  product: Product,
  parsed: ParsedArgs,
  error: PricingInputError,
  io: CliIo,
): number {
  const specs: readonly OptionSpec[] = PRODUCTS[product];
  for (const issue of error.issues) {
    const spec = specs.find((candidate) => candidate.field === issue.field);
    if (spec === undefined) {
      io.error(`error: ${issue.field}: ${issue.message}`);
      continue;
    }
    io.error(`error: --${spec.flag}: ${quoteTyped(issue.message, parsed.options.get(spec.flag))}`);
  }
  return EXIT_USAGE;
}

/**
 * The library's message about a number read from `typed`, quoting what the user typed rather than
 * the number it was read as: 400 nines read as Infinity, `1,000,000` as 1000000, `1.50` as 1.5.
 */
function quoteTyped(message: string, typed: string | undefined): string {
  if (typed === undefined) return message;
  const value = readNumber(typed);
  if (typeof value !== 'number') return message; // passed on as text: the library quoted it
  const got = `(got ${describeValue(value)}).`;
  return message.endsWith(got)
    ? `${message.slice(0, -got.length)}(got ${printable(typed)}).`
    : message;
}

function usage(io: CliIo, problems: readonly string[]): number {
  for (const problem of problems) io.error(`error: ${problem}`);
  io.error('Run firm-pricing --help for the commands and options.');
  return EXIT_USAGE;
}

function isOneOf<const T extends string>(
  value: string | undefined,
  options: readonly T[],
): value is T {
  return options.includes(value as T);
}

export type { SweepProduct };
