/**
 * A phone number as the API takes it (the login's `phone`, the calculators' `telephone` and `contact_number`):
 * digits, with spaces, `+`, brackets, dashes and dots. The spaces and dashes a pasted number may hold count too
 * (no-break, narrow no-break and thin spaces; the no-break hyphen and the en dash): found by the twenty-fifth
 * session's probe, such a number was refused by a message saying spaces may be used.
 */
const PHONE_NUMBER =
  /^[0-9+()\-. \u00A0\u2009\u202F\u2011\u2013]*[0-9][0-9+()\-. \u00A0\u2009\u202F\u2011\u2013]*$/;

/**
 * Whether `value` (as it is sent: trimmed) is a phone number.
 *
 * @example isPhoneNumber(' +44 (0)20 7946 0000 ') // true
 * @example isPhoneNumber('call me') // false
 */
export function isPhoneNumber(value: string): boolean {
  return PHONE_NUMBER.test(value.trim());
}

/** What a phone number field says when its value is not one. */
export const PHONE_NUMBER_MESSAGE =
  'Enter your phone number in digits (spaces, +, brackets, dashes and dots may be used)';
