/**
 * The 400 of a request the routes' JSON schemas refuse: one plain sentence that names the field and says what it
 * must be, in words a person reads (`Invalid field "phone": it must not be empty.`), not the validator's own
 * (`must NOT have fewer than 1 characters`, `must be string`, `must match format "email"`: found by the
 * twenty-seventh session's API probe; the portal shows these sentences as they come).
 */
import {
  EMAIL_ADDRESS_KEYWORD,
  ONE_LINE_RULE,
  PHONE_LINE_PATTERN,
  PHONE_LINE_RULE,
  PHONE_NUMBER_KEYWORD,
} from '../routes/schemas.js';
import { shownText } from './shown-text.js';

/** One error of the validator (Ajv), as the schema error formatter gets it. */
export interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** The JSON types, as a rule says a value must be one. */
const TYPE_NOUNS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

/** A number of a rule (a limit), as en-GB writes it: `100,000,000`, `0.5`. */
const NUMBER = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 20 });

function shownNumber(value: unknown): string {
  return typeof value === 'number' ? NUMBER.format(value) : shownText(String(value));
}

/** A value a rule allows (an `enum`'s or a `const`'s), as quoted in the message. */
function shownValue(value: unknown): string {
  return typeof value === 'string'
    ? `"${shownText(value)}"`
    : shownText(JSON.stringify(value) ?? '');
}

function characters(count: unknown): string {
  return `${shownNumber(count)} character${count === 1 ? '' : 's'}`;
}

function items(count: unknown): string {
  return `${shownNumber(count)} item${count === 1 ? '' : 's'}`;
}

/**
 * What a value must be, as the rule `error` broke says it, or `undefined` for a rule with no wording of its own
 * here (the validator's own then stands).
 *
 * @example plainRule({ keyword: 'maxLength', instancePath: '/name', params: { limit: 201 } }) // 'it must be at most 201 characters long.'
 */
export function plainRule(error: AjvError): string | undefined {
  const { params } = error;
  switch (error.keyword) {
    case 'type':
      return `it must be ${String(params.type)
        .split(',')
        .map((type) => TYPE_NOUNS[type] ?? shownText(type))
        .join(' or ')}.`;
    case 'minLength':
      return params.limit === 1
        ? 'it must not be empty.'
        : `it must be at least ${characters(params.limit)} long.`;
    case 'maxLength':
      return `it must be at most ${characters(params.limit)} long.`;
    case 'minimum':
      return `it must be at least ${shownNumber(params.limit)}.`;
    case 'maximum':
      return `it must be at most ${shownNumber(params.limit)}.`;
    case 'exclusiveMinimum':
      return `it must be more than ${shownNumber(params.limit)}.`;
    case 'exclusiveMaximum':
      return `it must be less than ${shownNumber(params.limit)}.`;
    case 'multipleOf':
      return `it must be a multiple of ${shownNumber(params.multipleOf)}.`;
    case 'enum': {
      const allowed = Array.isArray(params.allowedValues) ? params.allowedValues : [];
      return allowed.length === 1
        ? `it must be ${shownValue(allowed[0])}.`
        : `it must be one of ${allowed.map(shownValue).join(', ')}.`;
    }
    case 'const':
      return `it must be ${shownValue(params.allowedValue)}.`;
    case 'format':
      return params.format === 'email'
        ? 'give an e-mail address, such as name@example.com.'
        : `it must be a valid ${shownText(String(params.format))}.`;
    case 'minItems':
      return `it must hold at least ${items(params.limit)}.`;
    case 'maxItems':
      return `it must hold at most ${items(params.limit)}.`;
    case 'pattern':
      // Found by the twenty-sixth session's probe: every pattern said "it must not be blank and must be well
      // formed", which told the sender of "０２０ ７９４６" or of a pasted bidi mark nothing of what to change.
      // A phone field's own pattern lets the format controls through (its rule removes them).
      return params.pattern === PHONE_LINE_PATTERN ? PHONE_LINE_RULE : ONE_LINE_RULE;
    case EMAIL_ADDRESS_KEYWORD:
      return 'give an e-mail address, such as name@example.com.';
    case PHONE_NUMBER_KEYWORD:
      // Found by the twenty-sixth session: a number with an extension was refused as "not well formed".
      return error.message === undefined ? undefined : `${error.message}.`;
    default:
      return undefined;
  }
}

/** Validation errors as one plain sentence naming the field. */
export function formatSchemaError(errors: AjvError[], dataVar: string): Error {
  const error = errors[0];
  const noun = dataVar === 'querystring' ? 'query parameter' : 'field';
  let message = 'Invalid request.';
  if (error !== undefined) {
    // Names the sender chose are quoted without control characters and cut short, as elsewhere (shown-text.ts);
    // an unknown field's name went back as sent, an ESC or a bidi override included (found by the seventeenth
    // session's API probe).
    const where = shownText(error.instancePath.replace(/^\//, '').replace(/\//g, '.'));
    const rule = plainRule(error) ?? `${error.message ?? 'bad value'}.`;
    if (error.keyword === 'additionalProperties') {
      message = `Unknown ${noun} "${shownText(String(error.params.additionalProperty))}".`;
    } else if (error.keyword === 'required') {
      message = `Missing required ${noun} "${String(error.params.missingProperty)}".`;
    } else if (
      error.keyword === 'type' &&
      error.params.type === 'string' &&
      dataVar === 'querystring' &&
      where !== ''
    ) {
      // A query parameter is text, or a list of texts when it is given more than once (`?id=a&id=b`).
      message = `Invalid query parameter "${where}": give it once.`;
    } else if (where !== '') {
      message = `Invalid ${noun} "${where}": ${rule}`;
    } else {
      message = `Invalid ${dataVar}: ${rule}`;
    }
  }
  return Object.assign(new Error(message), { statusCode: 400 });
}
