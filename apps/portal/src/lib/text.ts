/**
 * Characters that show nothing: white space, NEL and the invisible format characters (soft hyphen, Mongolian
 * vowel separator, zero-width space, non-joiner, joiner, word joiner). The API counts the same ones as blank
 * (`VISIBLE_CHARACTER` in apps/api/src/routes/schemas.ts), so a field the form accepts is not refused there.
 */
const VISIBLE = /[^\s\u0085\u00AD\u180E\u200B-\u200D\u2060]/;

/**
 * Whether a text field has nothing a reader could see in it.
 *
 * @example isBlank(' \u200B ') // true
 * @example isBlank(' a ') // false
 */
export function isBlank(value: string): boolean {
  return !VISIBLE.test(value);
}
