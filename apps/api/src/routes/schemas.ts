/** JSON schemas shared by the routes (also the OpenAPI document's components). */
import {
  CONTROL_CHARACTER,
  FORMAT_CONTROL,
  LINE_BREAK,
  VISIBLE_CHARACTER,
} from '../text-controls.js';

export { CONTROL_CHARACTER, FORMAT_CONTROL, LINE_BREAK, VISIBLE_CHARACTER };

export const errorSchema = {
  type: 'object',
  description: 'Every error: a plain message safe to show.',
  properties: { error: { type: 'string' } },
  required: ['error'],
  additionalProperties: false,
} as const;

export const clientParams = {
  type: 'object',
  properties: {
    client: { type: 'string', description: 'The client prefix, e.g. demo', maxLength: 100 },
  },
  required: ['client'],
  additionalProperties: false,
} as const;

/** Error responses a route can give, for the OpenAPI document. */
export function errors(...statuses: number[]): Record<number, typeof errorSchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorSchema]));
}

/** What no one-line field holds: line breaks, control characters and the invisible format controls. */
export const NOT_IN_ONE_LINE = `${LINE_BREAK}${CONTROL_CHARACTER}${FORMAT_CONTROL}`;

/**
 * A required, non-blank, one-line text field: every route's user-entered line of text (names, phone numbers,
 * the activity item) is one of these, so each refuses line breaks, control characters and bidi controls alike.
 */
export const requiredText = (maxLength: number, description?: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength,
    pattern: `^[^${NOT_IN_ONE_LINE}]*${VISIBLE_CHARACTER}[^${NOT_IN_ONE_LINE}]*$`,
    ...(description === undefined ? {} : { description }),
  }) as const;

/** The most characters of a first name or a last name at login. */
export const NAME_MAX_LENGTH = 100;

/**
 * The most characters of a full name (a quote's contact name, the due-diligence request's): a first and a last
 * name of the longest a login takes, with the space between. The portal fills the full name in from the login's
 * names, so a shorter cap refused every quote and request of such a user, in a field they may not see.
 */
export const FULL_NAME_MAX_LENGTH = 2 * NAME_MAX_LENGTH + 1;

/**
 * The phone number rule, as the portal has it (apps/portal/src/lib/phone-number.ts: `phoneNumberProblem` and
 * `normalisePhoneNumber`, which behave as these do; a change to one is made to the other).
 *
 * A phone number: digits, with spaces, `+`, brackets, dashes and dots (the login's `phone`, the calculators'
 * `telephone` and `contact_number`). Found by the twenty-fifth session's portal probe: the calculators took any
 * line of text ("call me", "+", "))))"), stored and e-mailed to the team as the number to call back on. With the
 * spaces and dashes a pasted number may hold: no-break, thin and narrow no-break spaces, the no-break hyphen and the
 * en dash.
 */
const PHONE_NUMBER =
  /^[0-9+()\-. \u00A0\u2009\u202F\u2011\u2013]*[0-9][0-9+()\-. \u00A0\u2009\u202F\u2011\u2013]*$/;

/**
 * A number with an extension after it: `x12`, `ext 12`, `ext. 12`, `extn 12`, `extension 12`, `#12`. Found by the
 * twenty-sixth session: refused as "not well formed", which said nothing of the extension.
 */
const EXTENSION = /^(.*?)[\s,;]*(?:extension|extn|ext|x|#)[\s.:]*[0-9]+$/i;

/**
 * The digits of other scripts a phone's keyboard may type (Arabic-Indic, Eastern Arabic-Indic, fullwidth) and the
 * fullwidth `+`, brackets, hyphen, full stop and the ideographic space, read as the ASCII ones they mean. Found by
 * the twenty-sixth session: such a number was refused.
 */
const WIDE_CHARACTERS =
  /[\u0660-\u0669\u06F0-\u06F9\uFF10-\uFF19\uFF0B\uFF08\uFF09\uFF0D\uFF0E\u3000]/g;
const WIDE_PUNCTUATION: Record<string, string> = {
  '\uFF0B': '+',
  '\uFF08': '(',
  '\uFF09': ')',
  '\uFF0D': '-',
  '\uFF0E': '.',
  '\u3000': ' ',
};

/**
 * `value` with Arabic-Indic, Eastern Arabic-Indic and fullwidth digits (and the fullwidth `+ ( ) - .` and the
 * ideographic space) as ASCII: what is stored, e-mailed and answered.
 *
 * @example normalisePhoneNumber('٠٢٠ ٧٩٤٦ ٠٠٠٠') // '020 7946 0000'
 */
export function normalisePhoneNumber(value: string): string {
  return value.replace(
    WIDE_CHARACTERS,
    // Each script's zero is at a code point ending in 0 (U+0660, U+06F0, U+FF10).
    (character) => WIDE_PUNCTUATION[character] ?? String(character.charCodeAt(0) % 16),
  );
}

/** Why a value is not a phone number: not one at all, or one with an extension after it. */
export type PhoneNumberProblem = 'not-a-phone-number' | 'extension';

/**
 * What keeps `value` (trimmed, its digits read as ASCII) from being a phone number, or `undefined`.
 *
 * @example phoneNumberProblem('020 7946 0000 ext. 12') // 'extension'
 */
export function phoneNumberProblem(value: string): PhoneNumberProblem | undefined {
  const number = normalisePhoneNumber(value).trim();
  if (PHONE_NUMBER.test(number)) return undefined;
  const extension = EXTENSION.exec(number);
  if (extension !== null && PHONE_NUMBER.test(extension[1] ?? '')) return 'extension';
  return 'not-a-phone-number';
}

/** What the 400 says of a phone field (after `Invalid field "phone": `) for each problem. */
export const PHONE_NUMBER_ERRORS: Record<PhoneNumberProblem, string> = {
  'not-a-phone-number':
    'give the phone number in digits (spaces, +, brackets, dashes and dots may be used)',
  extension: 'leave out the extension and give the phone number on its own',
};

/** The schema keyword of a phone field (registered with the validator in app.ts: `phoneNumberKeyword`). */
export const PHONE_NUMBER_KEYWORD = 'x-phone-number';

/**
 * The validator's `x-phone-number` keyword: reads the field's digits as ASCII (in the body, so the route stores
 * and mails them so), then refuses a value that is no phone number with the problem's message (the error's
 * `params.problem`; `formatSchemaError` words the 400).
 */
export const phoneNumberKeyword = {
  keyword: PHONE_NUMBER_KEYWORD,
  type: 'string',
  schemaType: 'boolean',
  modifying: true,
  errors: true,
  validate: validatePhoneNumber,
} as const;

function validatePhoneNumber(
  enabled: boolean,
  data: string,
  _parentSchema?: unknown,
  dataCxt?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number },
): boolean {
  if (!enabled) return true;
  const normalised = normalisePhoneNumber(data);
  if (normalised !== data && dataCxt !== undefined) {
    dataCxt.parentData[dataCxt.parentDataProperty] = normalised;
  }
  const problem = phoneNumberProblem(normalised);
  validatePhoneNumber.errors =
    problem === undefined
      ? undefined
      : [
          {
            keyword: PHONE_NUMBER_KEYWORD,
            message: PHONE_NUMBER_ERRORS[problem],
            params: { problem },
          },
        ];
  return problem === undefined;
}
validatePhoneNumber.errors = undefined as
  { keyword: string; message: string; params: Record<string, unknown> }[] | undefined;

/**
 * A phone number field: a one-line text of at most 40 characters that is a phone number (`phoneNumberProblem`),
 * its digits stored as ASCII (`normalisePhoneNumber`).
 */
export const phoneField = {
  ...requiredText(
    40,
    'A phone number: digits (ASCII, Arabic-Indic or fullwidth, stored as ASCII) with spaces, +, brackets, ' +
      'dashes and dots; no extension.',
  ),
  [PHONE_NUMBER_KEYWORD]: true,
} as const;

/** What a one-line text field (`requiredText`) must be, as a refusal says it. */
export const ONE_LINE_RULE =
  'it must be one line of text that is not blank, without control characters or invisible text-direction marks.';

export const emailField = { type: 'string', format: 'email', maxLength: 254 } as const;

export const contentItemSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: ['case_study', 'insight'] },
    title: { type: 'string' },
    description_text: { type: 'string' },
    image_url: { type: ['string', 'null'] },
  },
  required: ['id', 'type', 'title', 'description_text', 'image_url'],
  additionalProperties: false,
} as const;

export const topicSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string', description: 'Sanitised HTML' },
    pro_tip: { type: ['string', 'null'], description: 'Sanitised HTML' },
  },
  required: ['id', 'title', 'description', 'pro_tip'],
  additionalProperties: false,
} as const;
