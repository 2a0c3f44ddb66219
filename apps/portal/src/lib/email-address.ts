import { withoutFormatCharacters } from './text';

/**
 * An e-mail address as the API's `format: "email"` takes it (ajv-formats' full `email`, with at most 64 characters
 * before the @ and 63 in each label of the host name, as mail servers hold to), so that a mistyped address is
 * highlighted here rather than refused by the API after the estimate is shown.
 */
const EMAIL_ADDRESS =
  /^(?=[^@]{1,64}@)[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * `value` as it is sent: without invisible format characters, trimmed. A copied address may carry them (a
 * zero-width space or soft hyphen a page breaks a long address at, the text-direction marks Windows wraps a copied
 * address in); the API removes them too (`storedEmailAddress` in apps/api/src/routes/schemas.ts). Found by the
 * twenty-eighth session's probe: `a\u200B@example.com` looked right and was asked for "an email address such as
 * name@example.com".
 *
 * @example normaliseEmailAddress(' ada\u200B@example.com ') // 'ada@example.com'
 */
export function normaliseEmailAddress(value: string): string {
  return withoutFormatCharacters(value).trim();
}

/**
 * Whether `value` (as it is sent: `normaliseEmailAddress`) is one e-mail address.
 *
 * @example isEmailAddress(' ada@example.com ') // true
 * @example isEmailAddress('ada.example.com') // false
 */
export function isEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS.test(normaliseEmailAddress(value));
}

/** What an e-mail field says when its value is not one address. */
export const EMAIL_ADDRESS_MESSAGE = 'Enter an email address such as name@example.com';
