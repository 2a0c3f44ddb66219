import { FORMAT_CONTROL, INVISIBLE } from './text-controls.js';

/** Characters that show nothing or reorder the text: the blank-text rule's, controls and bidi controls. */
const UNSHOWN = `${INVISIBLE}\\p{Cc}${FORMAT_CONTROL}`;
const UNSHOWN_CHARACTER = new RegExp(`[${UNSHOWN}]`, 'u');

/**
 * One e-mail address, as every route takes it: ajv-formats' full `email` (a dot-atom local part, a host name of
 * letters, digits and hyphens), with the lengths mail servers hold to (RFC 5321 §4.5.3.1): at most 64 characters
 * before the `@` and at most 63 in each label of the host name. The whole address is at most 254 characters
 * (each schema's `maxLength`). An address past those limits cannot be delivered to, so a login link or a reply
 * to it would be lost: it is refused when typed instead.
 *
 * The JSON calls' `format: "email"` is this pattern (`app.ts`), and so is the due-diligence form's E-mail field.
 */
export const EMAIL_ADDRESS =
  /^(?=[^@]{1,64}@)[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

/**
 * A contact address as the portal links it (`mailto:`): one address of at most 254 characters, a host name after
 * the `@`, and none of the characters that would give the link headers, a fragment or a second recipient
 * (`a@b.co?bcc=x%40y.z`, `a@b.co,x@y.z`) or end it (spaces, controls, quotes, angle brackets), nor any that show
 * nothing or reorder the text (as the blank-text rule counts them, the Braille blank and the Hangul fillers among
 * them, and the bidi controls), surrogates, private-use or unassigned code points. With U+202E first,
 * `moc.elpmaxe@yrosivda.maet` was shown on every page as team.advisory@example.com while its link mailed
 * yrosivda.maet (found by the twenty-second session's portal probe).
 */
export const CONTACT_EMAIL = new RegExp(
  `^(?=.{1,254}$)[^${UNSHOWN}\\p{Cs}\\p{Co}\\p{Cn}@?#%&,;<>"\\\\]{1,64}@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$`,
  // Not `i`: with `u`, `[a-z]` would also match the Kelvin sign K (U+212A) and the long s ſ (U+017F), which
  // case-fold to k and s: `team@adviſory.example` was taken as an ASCII host name (twenty-ninth session's probe).
  'u',
);

/**
 * For a refusal's message: `, which holds U+200B, a character that shows nothing or changes the text's direction`
 * when `text` holds one (the value quoted without it would look valid), else nothing.
 */
export function unshownNote(text: string): string {
  const found = UNSHOWN_CHARACTER.exec(text)?.[0];
  if (found === undefined) return '';
  const code = (found.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');
  return `, which holds U+${code}, a character that shows nothing or changes the text’s direction`;
}

/** What {@link CONTACT_EMAIL} asks for, in words (after "must be"). */
export const CONTACT_EMAIL_RULE =
  'one e-mail address such as team@advisory.example, without spaces, invisible or text-direction characters, or any of ? # % & , ; < > " \\';
