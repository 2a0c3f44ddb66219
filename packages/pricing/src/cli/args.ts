import { printable } from '../core/issues';

/** A command line split into positional words and `--name value` / `--name=value` options. */
export interface ParsedArgs {
  readonly positionals: readonly string[];
  readonly options: ReadonlyMap<string, string>;
  readonly switches: ReadonlySet<string>;
  readonly problems: readonly string[];
}

/** Options that take no value. */
const SWITCHES = new Set(['json', 'csv', 'help']);

/**
 * Split the arguments. `--json`, `--csv` and `--help` are switches; every other `--name` takes the
 * next word (or the text after `=`) as its value. A lone `--` ends the options.
 *
 * @example parseArgs(['quote', 'car', '--contract-works-value=500000', '--json'])
 */
export function parseArgs(args: readonly string[]): ParsedArgs {
  const positionals: string[] = [];
  const options = new Map<string, string>();
  const switches = new Set<string>();
  const problems: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    if (arg === '--') {
      // The end of the options, as in every Unix tool: what follows are words, even when they start with `--`
      // (it was read as an option with no name: "-- needs a value"; twenty-ninth session's pricing probe).
      positionals.push(...args.slice(i + 1));
      break;
    } else if (arg === '-h') {
      switches.add('help');
    } else if (arg.startsWith('--')) {
      const equals = arg.indexOf('=');
      const name = equals >= 0 ? arg.slice(2, equals) : arg.slice(2);
      if (SWITCHES.has(name)) {
        if (equals >= 0) problems.push(`--${printable(name)} takes no value.`);
        switches.add(name);
        continue;
      }
      let value: string | undefined;
      if (equals >= 0) value = arg.slice(equals + 1);
      else if (i + 1 < args.length && !(args[i + 1] as string).startsWith('--')) value = args[++i];
      // What the user typed is quoted short and printable (see printable).
      if (value === undefined) problems.push(`--${printable(name)} needs a value.`);
      else if (options.has(name)) problems.push(`--${printable(name)} is given twice.`);
      else options.set(name, value);
    } else {
      positionals.push(arg);
    }
  }
  return { positionals, options, switches, problems };
}

/** Plain digits, or digits grouped in threes by `,` or by `_` (not both), with optional decimals. */
const NUMBER_PATTERN = /^[+-]?(?:\d+|\d{1,3}(?:,\d{3})+|\d{1,3}(?:_\d{3})+)(?:\.\d+)?$/;

/**
 * Read a number the way people type pounds: digits, optionally grouped in threes by `,` or `_`.
 * Anything else (`2,5`, `1,00,000`) is passed on as text, so the library reports it with its own
 * message rather than the tool guessing what was meant.
 *
 * @example readNumber('1,000,000') // 1000000
 */
export function readNumber(text: string): number | string {
  if (!NUMBER_PATTERN.test(text)) return text;
  const value = Number(text.replace(/[,_]/g, ''));
  // Hundreds of digits overflow to Infinity; the user typed a finite number, too large for any
  // field, so it reads as the largest double and the library reports it as out of range.
  return Number.isFinite(value) ? value : Math.sign(value) * Number.MAX_VALUE;
}

/** Read yes/no/true/false; anything else is passed on as text for the library to report. */
export function readBoolean(text: string): boolean | string {
  const lower = text.toLowerCase();
  if (lower === 'true' || lower === 'yes') return true;
  if (lower === 'false' || lower === 'no') return false;
  return text;
}
