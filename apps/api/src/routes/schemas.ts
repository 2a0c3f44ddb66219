/** JSON schemas shared by the routes (also the OpenAPI document's components). */
import { EMAIL_ADDRESS } from '../email-address.js';
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
const EXTENSION = /^(.*?)[\s,;]*(?:extension|extn|ext|x|#)[\s.:=]*[0-9]+$/i;

/**
 * The invisible format characters (`\p{Cf}`) a copied number may carry: the zero-width space and joiners, the word
 * joiner, the soft hyphen, a BOM, and the text-direction marks and embeddings a Windows or right-to-left page wraps
 * around a number it copies (U+202A … U+202C). A phone number shows none of them, and keeps none: it is stored,
 * e-mailed and answered in digits and separators alone. Found by the twenty-seventh session's portal probe: a
 * number with a zero-width space was told to be given "in digits", with nothing visibly wrong.
 */
const FORMAT_CHARACTERS = /\p{Cf}/gu;

/**
 * A `tel:` URI's scheme before the number (RFC 3966), as a number copied from a link has it; `;ext=12` after the
 * number is an extension (`EXTENSION`). Found by the twenty-seventh session's portal probe: such a number was told
 * to be given "in digits".
 */
const TEL_SCHEME = /^(?:\s*tel:)+/i;

/**
 * A decimal digit of any script (`\p{Nd}`: Arabic-Indic, Eastern Arabic-Indic, Devanagari, Bengali, Thai,
 * fullwidth, the mathematical digits…) and the fullwidth `+`, brackets, hyphen, full stop and the ideographic space,
 * read as the ASCII ones they mean. Found by the twenty-sixth session: a fullwidth or Arabic-Indic number was
 * refused; and by the twenty-seventh: a Devanagari, Bengali or mathematical-digit number still was, told to "give
 * the phone number in digits", which it was.
 */
const WIDE_CHARACTERS = /[\p{Nd}\uFF0B\uFF08\uFF09\uFF0D\uFF0E\u3000]/gu;
const WIDE_PUNCTUATION: Record<string, string> = {
  '\uFF0B': '+',
  '\uFF08': '(',
  '\uFF09': ')',
  '\uFF0D': '-',
  '\uFF0E': '.',
  '\u3000': ' ',
};
const DECIMAL_DIGIT = /^\p{Nd}$/u;

/**
 * The value of a decimal digit of any script. Unicode encodes every script's digits as ten contiguous code points
 * from zero up (a stability guarantee), and where sets follow one another (the five mathematical ones) each is whole,
 * so a digit's value is its distance from the start of its run of digits, modulo ten.
 */
function digitValue(digit: string): string {
  const codePoint = digit.codePointAt(0) as number;
  let start = codePoint;
  while (DECIMAL_DIGIT.test(String.fromCodePoint(start - 1))) start -= 1;
  return String((codePoint - start) % 10);
}

/**
 * `value` with the decimal digits of every script (and the fullwidth `+ ( ) - .` and the ideographic space) as
 * ASCII, without its invisible format characters or a `tel:` before it: what is stored, e-mailed and answered.
 *
 * @example normalisePhoneNumber('٠٢٠ ٧٩٤٦ ٠٠٠٠') // '020 7946 0000'
 * @example normalisePhoneNumber('tel:+44\u200B20 7946 0000') // '+4420 7946 0000'
 */
export function normalisePhoneNumber(value: string): string {
  return value
    .replace(FORMAT_CHARACTERS, '')
    .replace(WIDE_CHARACTERS, (character) =>
      character >= '0' && character <= '9'
        ? character
        : (WIDE_PUNCTUATION[character] ?? digitValue(character)),
    )
    .replace(TEL_SCHEME, '');
}

/** The spaces and dashes a pasted number may hold, as the ASCII space and hyphen. */
const SEPARATORS = /[\u00A0\u2009\u202F\u2011\u2013]/g;

/**
 * A phone number as it is stored, e-mailed and answered: its digits ASCII (`normalisePhoneNumber`), its no-break,
 * thin and narrow no-break spaces plain spaces, its no-break hyphen and en dash hyphens, and no spaces (nor a BOM)
 * around it. Found by the twenty-seventh session: a quote's stored submission and the team's e-mail kept the number
 * as sent (`"\uFEFF 020 7946 0000 "`), the BOM and all, where only the quote's contact column was trimmed.
 *
 * @example storedPhoneNumber(' ０２０\u00A07946\u20110000 ') // '020 7946-0000'
 */
export function storedPhoneNumber(value: string): string {
  return normalisePhoneNumber(value)
    .replace(SEPARATORS, (separator) =>
      separator === '\u2011' || separator === '\u2013' ? '-' : ' ',
    )
    .trim();
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
 * The validator's `x-phone-number` keyword: puts the field in the body as it is to be stored (`storedPhoneNumber`:
 * ASCII digits, plain spaces and hyphens, trimmed; so the route stores and mails it so), then refuses a value that
 * is no phone number with the problem's message (the error's `params.problem`; `formatSchemaError` words the 400).
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
  const normalised = storedPhoneNumber(data);
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
 * What a phone field must be before its own rule reads it: one line, not blank, without control characters. Unlike
 * other one-line fields it may hold the invisible format controls (a text-direction mark around a copied number),
 * which its rule removes (`normalisePhoneNumber`), so none is stored.
 */
export const PHONE_LINE_PATTERN = `^[^${LINE_BREAK}${CONTROL_CHARACTER}]*${VISIBLE_CHARACTER}[^${LINE_BREAK}${CONTROL_CHARACTER}]*$`;

/** What a phone field must be, as a refusal of {@link PHONE_LINE_PATTERN} says it. */
export const PHONE_LINE_RULE =
  'it must be one line of text that is not blank, without control characters.';

/**
 * A phone number field: a one-line text of at most 40 characters that is a phone number (`phoneNumberProblem`),
 * its digits stored as ASCII (`normalisePhoneNumber`).
 */
export const phoneField = {
  ...requiredText(
    40,
    'A phone number: digits (of any script, stored as ASCII) with spaces, +, brackets, dashes and dots, ' +
      'optionally after tel:; no extension. Stored trimmed, with plain spaces and hyphens, without tel: or ' +
      'invisible format characters.',
  ),
  pattern: PHONE_LINE_PATTERN,
  [PHONE_NUMBER_KEYWORD]: true,
} as const;

/** What a one-line text field (`requiredText`) must be, as a refusal says it. */
export const ONE_LINE_RULE =
  'it must be one line of text that is not blank, without control characters or invisible text-direction marks.';

/**
 * An e-mail address as it is stored and used: without the spaces around it and the invisible format characters
 * (`FORMAT_CHARACTERS`, as a phone number's) it may be copied with: a zero-width space or soft hyphen a page breaks a long address at, the
 * text-direction embedding Windows wraps a copied address in. No address holds one, so removing them changes no
 * address into another. Found by the twenty-eighth session's probe: `a\u200B@example.com` looked right and was
 * refused as no e-mail address.
 */
export function storedEmailAddress(value: string): string {
  // Without the spaces or line end copied around it, too: the login trimmed the address only after the check had
  // refused `ada@example.com ` (thirtieth session's PostgreSQL probe).
  return value.replace(FORMAT_CHARACTERS, '').trim();
}

/** The schema keyword of an e-mail field (registered with the validator in app.ts: `emailAddressKeyword`). */
export const EMAIL_ADDRESS_KEYWORD = 'x-email-address';

/**
 * The validator's `x-email-address` keyword: puts the address in the body without its invisible format characters
 * (`storedEmailAddress`), then checks it is one address (`EMAIL_ADDRESS`, the lengths mail servers hold to). In
 * place of `format: "email"`, which judged the address as sent.
 */
export const emailAddressKeyword = {
  keyword: EMAIL_ADDRESS_KEYWORD,
  type: 'string',
  schemaType: 'boolean',
  modifying: true,
  errors: false,
  validate: (
    enabled: boolean,
    data: string,
    _parentSchema?: unknown,
    dataCxt?: { parentData: Record<string | number, unknown>; parentDataProperty: string | number },
  ): boolean => {
    if (!enabled) return true;
    const stored = storedEmailAddress(data);
    if (stored !== data && dataCxt !== undefined) {
      dataCxt.parentData[dataCxt.parentDataProperty] = stored;
    }
    return EMAIL_ADDRESS.test(stored);
  },
} as const;

export const emailField = {
  type: 'string',
  maxLength: 254,
  description:
    'One e-mail address (format email: at most 64 characters before the @, 63 in each label of the host name), ' +
    'stored without the invisible format characters it may be copied with.',
  [EMAIL_ADDRESS_KEYWORD]: true,
} as const;

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
