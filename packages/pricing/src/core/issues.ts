import type { SliderLimit } from '../limits';
import {
  LOSS_OF_RENT_NOT_AN_OBJECT_MESSAGE,
  MISSING_MESSAGE,
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
    message: message.replace(/\{(got|min|max|step|options)\}/g, (_, name: keyof MessageParams) => {
      if (name === 'got') return describeValue(params.got);
      if (name === 'options') return (params.options ?? []).map((o) => describeValue(o)).join(', ');
      return params[name] ?? '';
    }),
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
 * Check that the input (`path` '' for the top level) is a plain object and that it has no field
 * outside `known` (a typo must not silently drop a field).
 *
 * @returns The input as a record, or undefined (with an issue) when it is not an object.
 */
export function readRecord(
  issues: Issues,
  path: string,
  value: unknown,
  known: readonly string[],
  notAnObjectMessage: string = NOT_AN_OBJECT_MESSAGE,
): Readonly<Record<string, unknown>> | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    collect(issues, path === '' ? 'input' : path, notAnObjectMessage, { got: value });
    return undefined;
  }
  const record = value as Readonly<Record<string, unknown>>;
  for (const key of Object.keys(record)) {
    if (!known.includes(key)) {
      collect(issues, path === '' ? key : `${path}.${key}`, UNKNOWN_FIELD_MESSAGE, {
        options: known,
      });
    }
  }
  return record;
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
  if (value === undefined) return void collect(issues, field, MISSING_MESSAGE);
  if (!options.includes(value as T)) {
    return void collect(issues, field, UNKNOWN_OPTION_MESSAGE, { got: value, options });
  }
  return value as T;
}

/**
 * Check that a field is a boolean.
 *
 * @returns The boolean, or undefined (with an issue) when it is missing or not a boolean.
 */
export function readBoolean(issues: Issues, field: string, value: unknown): boolean | undefined {
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
 * Is `record` a plain object (its prototype Object.prototype or null) with exactly `count` own
 * enumerable keys? The fast path's check that no field is unknown, once it has read every field:
 * on a plain object those fields are own keys, so `count` of them leave no room for a typo.
 * Counting alone would let a typo through beside an inherited field (`Object.create({ gdv })` plus
 * `{ sumInsurred }`); arrays and class instances take the collecting path instead. Cheap: no key
 * list is built.
 */
export function isPlainWithKeyCount(record: object, count: number): boolean {
  const prototype: unknown = Object.getPrototypeOf(record);
  return (
    (prototype === Object.prototype || prototype === null) && Object.keys(record).length === count
  );
}

/** A short, safe rendering of a bad value for a message. */
export function describeValue(value: unknown): string {
  if (typeof value === 'string') {
    return JSON.stringify(value.length > 60 ? `${value.slice(0, 57)}...` : value);
  }
  if (typeof value === 'bigint') return `${value}n`;
  // A function is never turned into text: that would run its own toString (or Symbol.toPrimitive).
  if (typeof value === 'function') return 'a function';
  if (value === null || typeof value !== 'object') return String(value);
  return Array.isArray(value) ? 'an array' : 'an object';
}
