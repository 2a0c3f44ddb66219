import { EMAIL_ADDRESS_MESSAGE, isEmailAddress, normaliseEmailAddress } from '@/lib/email-address';
import { normalisePhoneNumber, phoneNumberMessage, phoneNumberProblem } from '@/lib/phone-number';
import {
  characterCount,
  hasHiddenCharacters,
  HIDDEN_CHARACTERS_MESSAGE,
  isBlank,
} from '@/lib/text';
import type { LoginRequest } from '@/types/api';

export type LoginField = keyof LoginRequest;

/** The login form's fields in the order they appear on screen. */
export const LOGIN_FIELDS = [
  'first_name',
  'last_name',
  'email',
  'phone',
] as const satisfies readonly LoginField[];

/** The longest value the API takes in each field (as sent: trimmed), in characters. */
export const LOGIN_MAX_LENGTH: Record<LoginField, number> = {
  first_name: 100,
  last_name: 100,
  email: 254,
  phone: 40,
};

const WHAT: Record<LoginField, string> = {
  first_name: 'your first name',
  last_name: 'your last name',
  email: 'your email address',
  phone: 'your phone number',
};

/**
 * What a login field says when the form cannot be sent with it, as the API would judge it, or `undefined`:
 * empty (or only invisible characters), holding a line break, a control character or a text-direction mark (a
 * phone number may hold the marks, which are not sent), too long, or not an e-mail address or a phone number (or a
 * phone number with an extension). The API refuses these too, but above the button, not at the field.
 *
 * @example loginFieldMessage({ first_name: ' ', last_name: 'Lee', email: 'a@b.co', phone: '1' }, 'first_name') // 'Enter your first name'
 */
export function loginFieldMessage(details: LoginRequest, field: LoginField): string | undefined {
  // A phone number and an e-mail address are judged as they are sent: without the invisible characters a copied
  // one may carry.
  const value =
    field === 'phone'
      ? normalisePhoneNumber(details[field])
      : field === 'email'
        ? normaliseEmailAddress(details[field])
        : details[field];
  if (isBlank(value)) return `Enter ${WHAT[field]}`;
  if (hasHiddenCharacters(value)) {
    return HIDDEN_CHARACTERS_MESSAGE;
  }
  if (characterCount(value.trim()) > LOGIN_MAX_LENGTH[field]) {
    return `Use at most ${LOGIN_MAX_LENGTH[field]} characters`;
  }
  if (field === 'email' && !isEmailAddress(value)) {
    return EMAIL_ADDRESS_MESSAGE;
  }
  if (field === 'phone') {
    const problem = phoneNumberProblem(value);
    if (problem !== undefined) return phoneNumberMessage(problem);
  }
  return undefined;
}

/** The fields the form cannot be sent with, in screen order. */
export function invalidLoginFields(details: LoginRequest): LoginField[] {
  return LOGIN_FIELDS.filter((field) => loginFieldMessage(details, field) !== undefined);
}
