import { withoutFormatCharacters } from './text';

/**
 * The phone number rule, as the API has it (apps/api/src/routes/schemas.ts: `phoneField`, `phoneNumberProblem` and
 * `normalisePhoneNumber`, which behave as these do; a change to one is made to the other).
 *
 * A phone number as the API takes it (the login's `phone`, the calculators' `telephone` and `contact_number`):
 * digits, with spaces, `+`, brackets, dashes and dots. The spaces and dashes a pasted number may hold count too
 * (no-break, narrow no-break and thin spaces; the no-break hyphen and the en dash): found by the twenty-fifth
 * session's probe, such a number was refused by a message saying spaces may be used.
 */
const PHONE_NUMBER =
  /^[0-9+()\-. \u00A0\u2009\u202F\u2011\u2013]*[0-9][0-9+()\-. \u00A0\u2009\u202F\u2011\u2013]*$/;

/**
 * A number with an extension after it: `x12`, `ext 12`, `ext. 12`, `extn 12`, `extension 12`, `#12`. Found by the
 * twenty-sixth session: refused with the message asking for digits, which the number was in.
 */
const EXTENSION = /^(.*?)[\s,;]*(?:extension|extn|ext|x|#)[\s.:=]*[0-9]+$/i;

/**
 * A `tel:` URI's scheme before the number (RFC 3966), as a number copied from a link has it; `;ext=12` after the
 * number is an extension (`EXTENSION`). Found by the twenty-seventh session's probe: told to be "in digits".
 */
const TEL_SCHEME = /^(?:\s*tel:)+/i;

/**
 * A decimal digit of any script (`\p{Nd}`: Arabic-Indic, Eastern Arabic-Indic, Devanagari, Bengali, Thai,
 * fullwidth, the mathematical digits…) and the fullwidth `+`, brackets, hyphen, full stop and the ideographic space
 * (a Japanese or Chinese keyboard's), read as the ASCII ones they mean. Found by the twenty-sixth session: an
 * Arabic-Indic or fullwidth number was refused as not in digits; and by the twenty-seventh: a Devanagari, Bengali or
 * mathematical-digit one still was, where the API took it.
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
 * ASCII, without its invisible format characters or a `tel:` before it: what the API stores.
 *
 * @example normalisePhoneNumber('٠٢٠ ٧٩٤٦ ٠٠٠٠') // '020 7946 0000'
 * @example normalisePhoneNumber('०२० ७९४६') // '020 7946'
 * @example normalisePhoneNumber('０２０－７９４６') // '020-7946'
 * @example normalisePhoneNumber('tel:+44\u200B20') // '+4420'
 */
export function normalisePhoneNumber(value: string): string {
  // The invisible format characters a copied number may carry (a zero-width space, the marks Windows wraps it in):
  // found by the twenty-seventh session's probe, such a number was told to be "in digits".
  return withoutFormatCharacters(value)
    .replace(WIDE_CHARACTERS, (character) =>
      character >= '0' && character <= '9'
        ? character
        : (WIDE_PUNCTUATION[character] ?? digitValue(character)),
    )
    .replace(TEL_SCHEME, '');
}

/** Why a value is not a phone number: not one at all, or one with an extension after it. */
export type PhoneNumberProblem = 'not-a-phone-number' | 'extension';

/**
 * What keeps `value` (as it is sent: trimmed, its digits read as ASCII) from being a phone number, or `undefined`.
 *
 * @example phoneNumberProblem('+44 (0)20 7946 0000') // undefined
 * @example phoneNumberProblem('020 7946 0000 ext. 12') // 'extension'
 * @example phoneNumberProblem('call me') // 'not-a-phone-number'
 */
export function phoneNumberProblem(value: string): PhoneNumberProblem | undefined {
  const number = normalisePhoneNumber(value).trim();
  if (PHONE_NUMBER.test(number)) return undefined;
  const extension = EXTENSION.exec(number);
  if (extension !== null && PHONE_NUMBER.test(extension[1] ?? '')) return 'extension';
  return 'not-a-phone-number';
}

/**
 * Whether `value` (as it is sent: trimmed) is a phone number.
 *
 * @example isPhoneNumber(' +44 (0)20 7946 0000 ') // true
 * @example isPhoneNumber('call me') // false
 */
export function isPhoneNumber(value: string): boolean {
  return phoneNumberProblem(value) === undefined;
}

/** What a phone number field says when its value is not one. */
export const PHONE_NUMBER_MESSAGE =
  'Enter your phone number in digits (spaces, +, brackets, dashes and dots may be used)';

/** What a phone number field says when its value is one with an extension after it. */
export const PHONE_EXTENSION_MESSAGE = 'Leave out the extension: enter the phone number on its own';

/** What a phone number field says for `problem`. */
export function phoneNumberMessage(problem: PhoneNumberProblem): string {
  return problem === 'extension' ? PHONE_EXTENSION_MESSAGE : PHONE_NUMBER_MESSAGE;
}
