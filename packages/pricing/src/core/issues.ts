import type { SliderLimit } from '../limits';
import {
  LOSS_OF_RENT_NOT_AN_OBJECT_MESSAGE,
  MISSING_MESSAGE,
  MORE_UNKNOWN_FIELDS_MESSAGE,
  NOT_A_BOOLEAN_MESSAGE,
  NOT_A_MULTIPLE_MESSAGE,
  NOT_A_NUMBER_MESSAGE,
  NOT_AN_OBJECT_MESSAGE,
  NOT_FINITE_MESSAGE,
  NOT_WHOLE_NUMBER_MESSAGE,
  NOT_WHOLE_POUNDS_MESSAGE,
  OUT_OF_RANGE_MESSAGE,
  UNKNOWN_FIELD_MESSAGE,
  UNKNOWN_OPTION_MESSAGE,
  UNREADABLE_MESSAGE,
} from './messages';
import { groupThousands } from './group-thousands';
import { PricingInputError, type PricingInputIssue } from './pricing-input-error';

/** The issues found so far in one input. */
export type Issues = PricingInputIssue[];

/** What a whole-number field counts: pounds are shown with £, the rest as plain numbers. */
export type Quantity = 'pounds' | 'count';

interface MessageParams {
  readonly got?: unknown;
  readonly min?: string;
  readonly max?: string;
  readonly step?: string;
  readonly options?: readonly unknown[];
  readonly count?: string;
  /** Show `got`'s characters outside printable ASCII as `\u{…}` (see {@link readOption}). */
  readonly gotAsAscii?: boolean;
}

/**
 * The one collect helper: record an issue for `field`, filling the message's placeholders.
 *
 * @param issues The issues of the input being checked.
 * @param field The field's path, e.g. `sumInsured` or `lossOfRent.termMonths`.
 * @param message One of the message constants of `messages.ts`.
 * @param params The values named by the message's placeholders.
 */
export function collect(
  issues: Issues,
  field: string,
  message: string,
  params: MessageParams = {},
): void {
  issues.push({
    field,
    message: message.replace(
      /\{(got|min|max|step|options|count)\}/g,
      (_, name: Exclude<keyof MessageParams, 'gotAsAscii'>) => {
        if (name === 'got') return describeValue(params.got, params.gotAsAscii);
        if (name === 'options')
          return (params.options ?? []).map((o) => describeValue(o)).join(', ');
        return params[name] ?? '';
      },
    ),
  });
}

/**
 * Throw a {@link PricingInputError} listing every issue collected, if there is any.
 *
 * @param issues The issues of the input being checked.
 */
export function throwIfAny(issues: Issues): void {
  if (issues.length > 0) throw new PricingInputError(issues);
}

/**
 * What a field reads as when reading it threw (a getter, a Proxy trap, a revoked Proxy): the issue
 * is already collected, so the read helpers skip it rather than reporting it again.
 */
export const UNREADABLE: unique symbol = Symbol('unreadable');

/** Unknown fields named one by one; past that one issue counts the rest, so a message stays short. */
const UNKNOWN_FIELDS_LISTED = 10;

/**
 * Throw the {@link PricingInputError} of an input whose reading threw (the quote functions' fast
 * path). Nothing is read again: the caller's code is never run a second time after it threw.
 */
export function throwUnreadable(): never {
  throw new PricingInputError([{ field: 'input', message: UNREADABLE_MESSAGE }]);
}

/**
 * Check that the input (`path` '' for the top level) is a plain object and that it has no field
 * outside `known` (a typo must not silently drop a field), then read each known field once.
 *
 * @returns The known fields as read (a field whose read threw is {@link UNREADABLE}, with an
 * issue), or undefined (with an issue) when it is not an object or cannot be read.
 */
export function readRecord(
  issues: Issues,
  path: string,
  value: unknown,
  known: readonly string[],
  notAnObjectMessage: string = NOT_AN_OBJECT_MESSAGE,
): Readonly<Record<string, unknown>> | undefined {
  if (value === UNREADABLE) return undefined;
  const where = path === '' ? 'input' : path;
  let keys: string[] | undefined;
  try {
    // A revoked Proxy throws from Array.isArray; a Proxy's traps may throw from Object.keys.
    if (
      typeof value === 'object' &&
      value !== null &&
      !Array.isArray(value) &&
      indexedKind(value) === undefined
    ) {
      keys = Object.keys(value);
    }
  } catch {
    collect(issues, where, UNREADABLE_MESSAGE);
    return undefined;
  }
  if (keys === undefined) {
    collect(issues, where, notAnObjectMessage, { got: value });
    return undefined;
  }
  let unknown = 0;
  for (const key of keys) {
    if (known.includes(key)) continue;
    unknown += 1;
    if (unknown <= UNKNOWN_FIELDS_LISTED) {
      const name = printable(key);
      collect(issues, path === '' ? name : `${path}.${name}`, UNKNOWN_FIELD_MESSAGE, {
        options: known,
      });
    }
  }
  if (unknown > UNKNOWN_FIELDS_LISTED) {
    collect(issues, where, MORE_UNKNOWN_FIELDS_MESSAGE, {
      count: groupThousands(unknown - UNKNOWN_FIELDS_LISTED),
    });
  }
  // Each known field is read exactly once, here; what was read is what is checked and priced.
  const record = value as Readonly<Record<string, unknown>>;
  // Keyed only by the names in `known` (never '__proto__'), so a plain object is safe and fast.
  const read: Record<string, unknown> = {};
  let threw = false;
  for (const key of known) {
    // After one read threw, nothing more is read: a Proxy's get trap that threw is not run again.
    if (threw) {
      read[key] = UNREADABLE;
      continue;
    }
    try {
      read[key] = record[key];
    } catch {
      collect(issues, path === '' ? key : `${path}.${key}`, UNREADABLE_MESSAGE);
      read[key] = UNREADABLE;
      threw = true;
    }
  }
  return read;
}

/** {@link readRecord} for the optional `lossOfRent` group. */
export function readLossOfRentRecord(
  issues: Issues,
  value: unknown,
  known: readonly string[],
): Readonly<Record<string, unknown>> | undefined {
  return readRecord(issues, 'lossOfRent', value, known, LOSS_OF_RENT_NOT_AN_OBJECT_MESSAGE);
}

/**
 * Check a whole-number field against its slider limit (and, if given, a required multiple).
 *
 * @returns The value, or undefined (with an issue) when it is missing or bad.
 */
export function readWhole(
  issues: Issues,
  field: string,
  value: unknown,
  limit: SliderLimit,
  quantity: Quantity,
  multipleOf?: number,
): number | undefined {
  if (value === UNREADABLE) return undefined; // already reported
  if (value === undefined) return void collect(issues, field, MISSING_MESSAGE);
  if (typeof value !== 'number')
    return void collect(issues, field, NOT_A_NUMBER_MESSAGE, { got: value });
  if (!Number.isFinite(value))
    return void collect(issues, field, NOT_FINITE_MESSAGE, { got: value });
  if (!Number.isInteger(value)) {
    const message = quantity === 'pounds' ? NOT_WHOLE_POUNDS_MESSAGE : NOT_WHOLE_NUMBER_MESSAGE;
    return void collect(issues, field, message, { got: value });
  }
  if (value < limit.min || value > limit.max) {
    const show = (n: number): string =>
      quantity === 'pounds' ? `£${groupThousands(n)}` : groupThousands(n);
    return void collect(issues, field, OUT_OF_RANGE_MESSAGE, {
      got: value,
      min: show(limit.min),
      max: show(limit.max),
    });
  }
  if (multipleOf !== undefined && value % multipleOf !== 0) {
    return void collect(issues, field, NOT_A_MULTIPLE_MESSAGE, {
      got: value,
      step: String(multipleOf),
    });
  }
  // -0 is the number 0: no result may carry a -0 (it prints as "-0" in some places).
  return value === 0 ? 0 : value;
}

/**
 * Check that a field is one of the given options (labels or numbers, compared with ===).
 *
 * @returns The option, or undefined (with an issue) when it is missing or unknown.
 */
export function readOption<const T>(
  issues: Issues,
  field: string,
  value: unknown,
  options: readonly T[],
): T | undefined {
  if (value === UNREADABLE) return undefined; // already reported
  if (value === undefined) return void collect(issues, field, MISSING_MESSAGE);
  if (!options.includes(value as T)) {
    // Every option is plain ASCII: a label that only looks like one ("Not Stаrted" with a Cyrillic
    // а) is quoted with its other characters as \u{…}, so the message shows why it is not the same.
    const gotAsAscii = options.every((option) => typeof option !== 'string' || ASCII.test(option));
    return void collect(issues, field, UNKNOWN_OPTION_MESSAGE, { got: value, options, gotAsAscii });
  }
  return value as T;
}

/**
 * Check that a field is a boolean.
 *
 * @returns The boolean, or undefined (with an issue) when it is missing or not a boolean.
 */
export function readBoolean(issues: Issues, field: string, value: unknown): boolean | undefined {
  if (value === UNREADABLE) return undefined; // already reported
  if (value === undefined) return void collect(issues, field, MISSING_MESSAGE);
  if (typeof value !== 'boolean') {
    return void collect(issues, field, NOT_A_BOOLEAN_MESSAGE, { got: value });
  }
  return value;
}

/**
 * Is `value` a whole number within [min, max]? The quote functions' fast path: when every field
 * passes the fast checks, the full collecting validation is skipped.
 */
export function isWholeIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/**
 * Is `record` a plain object (its prototype Object.prototype or null) whose own enumerable keys are
 * all in `known`? The fast path's check that no field is unknown, once it has read every field: the
 * same rule as {@link readRecord}'s. Counting the keys instead is not enough: a known field that is
 * not an enumerable own key (non-enumerable, or served by a Proxy that does not list it) leaves room
 * in the count for a typo, which would then be dropped. Arrays and class instances take the
 * collecting path instead.
 */
export function isPlainWithOnly(record: object, known: readonly string[]): boolean {
  const prototype: unknown = Object.getPrototypeOf(record);
  if (prototype !== Object.prototype && prototype !== null) return false;
  // `for…in` walks the enumerable keys without building a list (this runs once a quote); it also walks inherited
  // ones, which only makes it stricter (an unknown one sends the input down the collecting path). Keys usually
  // come in the order of `known`, so each is first compared with the one at its place.
  let at = 0;
  for (const key in record) {
    if (key !== known[at] && !known.includes(key)) return false;
    at += 1;
  }
  return true;
}

/** Printable ASCII only. */
const ASCII = /^[\x20-\x7E]*$/;

/** The most characters of a caller's text (a name or a value) that a message quotes. */
const SHOWN = 60;

/**
 * Characters a reader cannot see or that change how the rest reads: controls, format characters
 * (bidi overrides, zero-width spaces), lone surrogates, private-use and unassigned code points,
 * line/paragraph separators, every space other than the plain one, and default-ignorables.
 */
const HIDDEN =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]|(?! )\p{Zs}/u;

/**
 * A caller's text made short and printable for a message: hidden characters shown as `\u{…}`,
 * `\` and `"` escaped, and cut after {@link SHOWN} characters with "…". Reads only the prefix.
 * With `asAscii`, every character outside printable ASCII is shown as `\u{…}` too.
 */
export function printable(text: string, asAscii = false): string {
  let shown = '';
  for (const char of text) {
    const piece =
      HIDDEN.test(char) || (asAscii && !ASCII.test(char))
        ? `\\u{${(char.codePointAt(0) as number).toString(16).toUpperCase()}}`
        : char === '\\' || char === '"'
          ? `\\${char}`
          : char;
    if (shown.length + piece.length > SHOWN) return `${shown}…`;
    shown += piece;
  }
  return shown;
}

/** Whole BigInts up to this size are shown; a larger one is never turned into text (slow). */
const LARGEST_BIGINT_SHOWN = 10n ** 30n;

/**
 * A short, safe rendering of a bad value for a message. Never throws, and never turns a caller's
 * object into text (no toString, valueOf, toJSON or Symbol.toPrimitive runs).
 */
export function describeValue(value: unknown, asAscii = false): string {
  if (typeof value === 'string') return `"${printable(value, asAscii)}"`;
  if (typeof value === 'bigint') {
    return value < LARGEST_BIGINT_SHOWN && value > -LARGEST_BIGINT_SHOWN
      ? `${value}n`
      : 'a BigInt of more than 30 digits';
  }
  if (typeof value === 'symbol') return `Symbol(${printable(value.description ?? '')})`;
  // A function is never turned into text: that would run its own toString (or Symbol.toPrimitive).
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  if (isArray(value)) return 'an array';
  try {
    return indexedKind(value) ?? 'an object';
  } catch {
    return 'an object';
  }
}

const objectToString = Object.prototype.toString;

/**
 * 'binary data' or 'a String object' for an object with an own key per byte or character (a
 * Buffer, a typed array, `new String(…)`), else undefined. Listing those keys would take seconds
 * and gigabytes for a large one, so such an object is refused unlisted. The only caller code it
 * can run is a Symbol.toStringTag getter or Proxy trap, once; it throws what that throws.
 */
function indexedKind(value: object): string | undefined {
  if (ArrayBuffer.isView(value)) return 'binary data';
  // The cheap test first: throwing and catching on every object costs microseconds.
  if (objectToString.call(value) !== '[object String]') return undefined;
  try {
    String.prototype.valueOf.call(value); // throws unless a real String object
    return 'a String object';
  } catch {
    return undefined;
  }
}

/** Array.isArray, except that a revoked Proxy (which makes it throw) is not an array. */
function isArray(value: object): boolean {
  try {
    return Array.isArray(value);
  } catch {
    return false;
  }
}
