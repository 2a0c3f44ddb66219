/**
 * Characters that show nothing by themselves: white space, NEL, the soft hyphen, the Mongolian vowel separator, the
 * zero-width space and joiners, the word joiner and the invisible operators, the combining grapheme joiner, the
 * Hangul fillers, the Khmer inherent vowels, the Braille blank, the variation selectors, the tag characters and
 * any combining mark, every format character (\p{Cf}) and every default-ignorable one. The API counts the same
 * ones as blank (`INVISIBLE` in apps/api/src/text-controls.ts), so a
 * field the form accepts is not refused there.
 */
const INVISIBLE =
  '\\s\\u0085\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B-\\u200D\\u2060-\\u2064\\u2800\\u3164' +
  '\\uFE00-\\uFE0F\\uFFA0\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}\\p{M}\\p{Cf}' +
  '\\p{Default_Ignorable_Code_Point}';
// Each combining mark in the class is matched by itself, on purpose: a mark alone shows nothing.
// eslint-disable-next-line no-misleading-character-class
const VISIBLE = new RegExp(`[^${INVISIBLE}]`, 'u');

/**
 * Whether a text field has nothing a reader could see in it.
 *
 * @example isBlank(' \u200B ') // true
 * @example isBlank(' a ') // false
 */
export function isBlank(value: string): boolean {
  return !VISIBLE.test(value);
}

/**
 * The invisible format controls that reorder or hide text (bidi marks, embeddings, overrides, isolates, the
 * deprecated format controls, the interlinear annotation marks), as the inside of a character class: the API's
 * `FORMAT_CONTROL` (apps/api/src/text-controls.ts).
 */
export const FORMAT_CONTROL =
  '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\u206A-\\u206F\\uFFF9-\\uFFFB';

/**
 * Control characters other than tabs and line breaks (C0, DEL, C1), as the inside of a character class: the API's
 * `CONTROL_CHARACTER` (apps/api/src/text-controls.ts).
 */
export const CONTROL_CHARACTER = '\\u0000-\\u0008\\u000E-\\u001F\\u007F-\\u0084\\u0086-\\u009F';

/**
 * What no one-line field the API takes may hold (`NOT_IN_ONE_LINE` in apps/api/src/routes/schemas.ts, from
 * apps/api/src/text-controls.ts): line breaks, control characters (but tab) and the invisible format controls;
 * and lone surrogates, which the API refuses anywhere. Checked here so that such a value is shown at its field,
 * not refused by the API after the fact.
 */
const HIDDEN_IN_A_LINE = new RegExp(
  `[\\n\\v\\f\\r\\u0085\\u2028\\u2029${CONTROL_CHARACTER}${FORMAT_CONTROL}]` +
    '|[\\uD800-\\uDBFF](?![\\uDC00-\\uDFFF])|(?<![\\uD800-\\uDBFF])[\\uDC00-\\uDFFF]',
);

/**
 * Whether a one-line field holds a character the API refuses in it (a line break, a control character, an
 * invisible text-direction mark, a lone surrogate).
 *
 * @example hasHiddenCharacters('Ada\u200FLovelace') // true
 * @example hasHiddenCharacters('Ada Lovelace') // false
 */
export function hasHiddenCharacters(value: string): boolean {
  return HIDDEN_IN_A_LINE.test(value);
}

/** A text's length as the API counts it (in characters, not UTF-16 code units: an emoji is one). */
export function characterCount(value: string): number {
  return [...value].length;
}

/** What a one-line field says when it holds a character the API refuses in it (see {@link hasHiddenCharacters}). */
export const HIDDEN_CHARACTERS_MESSAGE =
  'Remove the line breaks or hidden characters (such as text-direction marks) from this field';

/**
 * `value` without its invisible format characters (`\p{Cf}`: the zero-width space and joiners, the word joiner, the
 * soft hyphen, a BOM, the text-direction marks and embeddings a Windows or right-to-left page wraps around what it
 * copies). A phone number or an e-mail address holds none, so they are removed from those before they are judged
 * and sent (`lib/phone-number.ts`, `lib/email-address.ts`), as the API removes them.
 *
 * @example withoutFormatCharacters('ada\u200B@example.com') // 'ada@example.com'
 */
export function withoutFormatCharacters(value: string): string {
  return value.replace(/\p{Cf}/gu, '');
}
