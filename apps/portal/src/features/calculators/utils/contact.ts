import { isBlank } from '@/lib/text';
import type { ContactDetails } from '../stores/create-draft-store';

/** The contact fields in the order they appear on screen. */
export const CONTACT_FIELDS = [
  'name',
  'telephone',
  'email',
] as const satisfies readonly (keyof ContactDetails)[];

export type ContactField = (typeof CONTACT_FIELDS)[number];

/** The logged-in user's details, used until the user edits a contact field. */
export function contactFromUser(user: {
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
}): ContactDetails {
  return {
    name: [user.first_name, user.last_name]
      .map((part) => part.trim())
      .filter(Boolean)
      .join(' '),
    telephone: user.phone,
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

/**
 * An e-mail address as the API's `format: "email"` takes it (ajv-formats' full `email`), so that a mistyped
 * address is highlighted here rather than refused by the API after the estimate is shown.
 */
const EMAIL_ADDRESS =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

/**
 * Whether `value` (as it is sent: trimmed) is one e-mail address.
 *
 * @example isEmailAddress(' ada@example.com ') // true
 * @example isEmailAddress('ada.example.com') // false
 */
export function isEmailAddress(value: string): boolean {
  return EMAIL_ADDRESS.test(value.trim());
}

/**
 * The contact fields Calculate must not go on with, in screen order: the empty ones, and an e-mail address that
 * is not one.
 *
 * @example invalidContactFields({ name: 'Ada', telephone: '', email: 'ada.example.com' }) // ['telephone', 'email']
 */
export function invalidContactFields(contact: ContactDetails): ContactField[] {
  const missing = missingContactFields(contact);
  return CONTACT_FIELDS.filter(
    (field) => missing.includes(field) || (field === 'email' && !isEmailAddress(contact.email)),
  );
}
