/**
 * The characters that would change what a `mailto:` link does rather than name an address: `?` starts headers
 * (`?bcc=…&body=…`), `#` a fragment, `,` a second recipient, `%` an escape that would be decoded into any of
 * these; and white space, controls and the characters a URL may not hold. Each is percent-encoded, so the link
 * addresses exactly the text shown.
 */
// eslint-disable-next-line no-control-regex
const MAILTO_SPECIAL = /[\u0000-\u0020\u007f"#%&,<>?\\^`{|}]/g;

/**
 * `team@provider.example` → `mailto:team@provider.example`, with {@link MAILTO_SPECIAL} encoded: a contact
 * address of `a@b.co?bcc=x%40y.z` gives a link to that one (odd) address, never a hidden copy to another.
 *
 * @example mailtoHref('a@b.co?bcc=x%40y.z') // 'mailto:a@b.co%3Fbcc=x%2540y.z'
 */
export function mailtoHref(email: string): string {
  return `mailto:${email.replace(MAILTO_SPECIAL, percentEncoded)}`;
}

/** One ASCII character as `%XX`. */
const percentEncoded = (c: string) =>
  `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
