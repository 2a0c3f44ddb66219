/**
 * A phone number as the API takes it (the login's `phone`, the calculators' `telephone` and `contact_number`):
 * digits, with spaces, `+`, brackets, dashes and dots.
 */
const PHONE_NUMBER = /^[0-9+()\-. ]*[0-9][0-9+()\-. ]*$/;

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
