import { isEmailAddress, normaliseEmailAddress } from '@/lib/email-address';
import { normalisePhoneNumber, phoneNumberProblem } from '@/lib/phone-number';
import { characterCount, hasHiddenCharacters, isBlank } from '@/lib/text';
import type { ContactDetails } from '../stores/create-draft-store';

/** The contact fields in the order they appear on screen. */
export const CONTACT_FIELDS = [
  'name',
  'telephone',
  'email',
] as const satisfies readonly (keyof ContactDetails)[];

export type ContactField = (typeof CONTACT_FIELDS)[number];

/**
 * The logged-in user's details, used until the user edits a contact field; with `telephone`, the one the user last
 * sent to the team from a calculator (`contact-prefill-store.ts`) in place of the login's.
 */
export function contactFromUser(
  user: {
    first_name: string;
    last_name: string;
    phone: string;
    email: string;
  },
  telephone: string | null = null,
): ContactDetails {
  return {
    name: [user.first_name, user.last_name]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    telephone: telephone ?? user.phone,
    email: user.email,
  };
}

/**
 * The contact fields left empty (blank, white space or invisible characters only, counts as empty), in screen
 * order.
 *
 * @example missingContactFields({ name: ' ', telephone: '07700 900123', email: '' }) // ['name', 'email']
 */
export function missingContactFields(contact: ContactDetails): ContactField[] {
  return CONTACT_FIELDS.filter((field) => isBlank(contact[field]));
}

/** The longest value the API takes in each contact field (as sent: trimmed), in characters. */
export const CONTACT_MAX_LENGTH: Record<ContactField, number> = {
  // A first and a last name of the longest a login takes (100 each), with the space between: the name is filled
  // in from them, so a shorter cap would refuse such a user's own name.
  name: 201,
  telephone: 40,
  email: 254,
};

/** Why Calculate cannot go on with a contact field. */
export type ContactProblem =
  | 'missing'
  | 'too-long'
  | 'hidden-characters'
  | 'not-an-address'
  | 'not-a-phone-number'
  | 'phone-extension';

/**
 * What is wrong with one contact field, as the API would judge it, or `undefined`: empty, longer than it takes,
 * holding a character it refuses in a line (a line break, a control character, an invisible text-direction mark),
 * or, for the e-mail, not an address, and for the telephone, not a phone number (or one with an extension after it).
 *
 * @example contactProblem({ name: 'Ada\u200FLovelace', telephone: '1', email: 'a@b.co' }, 'name') // 'hidden-characters'
 */
export function contactProblem(
  contact: ContactDetails,
  field: ContactField,
): ContactProblem | undefined {
  // A telephone and an e-mail address are judged as they are sent: without the invisible characters a copied one
  // may carry.
  const value =
    field === 'telephone'
      ? normalisePhoneNumber(contact[field])
      : field === 'email'
        ? normaliseEmailAddress(contact[field])
        : contact[field];
  if (isBlank(value)) return 'missing';
  if (hasHiddenCharacters(value)) return 'hidden-characters';
  if (characterCount(value.trim()) > CONTACT_MAX_LENGTH[field]) return 'too-long';
  if (field === 'email' && !isEmailAddress(value)) return 'not-an-address';
  // Found by the twenty-fifth session's portal probe: "call me", "+" or "))))" went to the team as the number to
  // call back on. The login has always asked for digits; the calculators now ask for them too, as the API does.
  if (field === 'telephone') {
    const problem = phoneNumberProblem(value);
    if (problem === 'extension') return 'phone-extension';
    if (problem !== undefined) return 'not-a-phone-number';
  }
  return undefined;
}

/**
 * The contact fields Calculate must not go on with, in screen order (see {@link contactProblem}).
 *
 * @example invalidContactFields({ name: 'Ada', telephone: '', email: 'ada.example.com' }) // ['telephone', 'email']
 */
export function invalidContactFields(contact: ContactDetails): ContactField[] {
  return CONTACT_FIELDS.filter((field) => contactProblem(contact, field) !== undefined);
}
