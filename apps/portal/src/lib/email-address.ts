/**
 * An e-mail address as the API's `format: "email"` takes it (ajv-formats' full `email`, with at most 64 characters
 * before the @ and 63 in each label of the host name, as mail servers hold to), so that a mistyped address is
 * highlighted here rather than refused by the API after the estimate is shown.
 */
const EMAIL_ADDRESS =
  /^(?=[^@]{1,64}@)[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * Whether `value` (as it is sent: trimmed) is one e-mail address.
 *
 * @example isEmailAddress(' ada@example.com ') // true
 * @example isEmailAddress('ada.example.com') // false
 */
export function isEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS.test(value.trim());
}

/** What an e-mail field says when its value is not one address. */
export const EMAIL_ADDRESS_MESSAGE = 'Enter an email address such as name@example.com';
