/**
 * Checks that an ok answer has the shape the API gives (src/types/api.ts): a JSON object of another shape (a
 * proxy's or another version's answer, a field of the wrong type) crashed the page that drew it, showing the
 * script's own error ("Cannot read properties of null (reading 'length')") without a Retry, or drew a nameless
 * button (found by the nineteenth session's portal probe). With a check, such an answer is an
 * `UnreadableAnswerError`, shown in plain words with the page's Retry. Fields beyond these are allowed.
 */
import type { Client, LoginResponse } from '@/types/api';

type Fields = Record<string, unknown>;

export const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
export const isText = (value: unknown): value is string => typeof value === 'string';
export const isTextOrNull = (value: unknown): value is string | null =>
  value === null || isText(value);
export const arrayOf = <T>(value: unknown, isItem: (item: unknown) => item is T): value is T[] =>
  Array.isArray(value) && value.every((item) => isItem(item));
/** An object whose `names` are all text. */
export const hasText = (value: unknown, names: readonly string[]): value is Fields =>
  isObject(value) && names.every((name) => isText(value[name]));

/** GET /api/{client}. */
export function isClient(value: unknown): value is Client {
  return (
    hasText(value, ['prefix', 'name', 'first_name', 'last_name', 'email', 'phone']) &&
    typeof value.logged_in === 'boolean' &&
    (value.login_policy === 'open' || value.login_policy === 'magic-link') &&
    hasText(value.branding, ['primary', 'accent']) &&
    isTextOrNull(value.branding.logo_url) &&
    hasText(value.contact, ['phone', 'email']) &&
    hasText(value.footer, ['blurb', 'regulatory'])
  );
}

/** POST /api/{client}/login. */
export function isLoginResponse(value: unknown): value is LoginResponse {
  return isObject(value) && (isText(value.redirect) || value.redirect === false);
}
