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
