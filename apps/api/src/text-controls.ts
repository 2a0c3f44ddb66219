/**
 * The characters text must not hide, as the inside of a regular expression's character class, shared by the
 * routes' schemas (what users type), the staff tool's client records and the quoting of text in messages.
 */

/**
 * Control characters other than tabs and line breaks (C0, DEL, C1): they show nothing, and some drive terminals
 * (ESC, CSI), where the staff tool prints what users typed.
 */
export const CONTROL_CHARACTER = '\\u0000-\\u0008\\u000E-\\u001F\\u007F-\\u0084\\u0086-\\u009F';

/**
 * Invisible format controls that reorder or hide the text around them ("Trojan Source" spoofing: a name of
 * U+202E + "evil" shows reversed, and so does everything after it, in the team's e-mail, the CSV export and the
 * portal's header): the bidi marks, embeddings, overrides and isolates (U+061C, U+200E, U+200F, U+202A–U+202E,
 * U+2066–U+2069), the deprecated format controls (U+206A–U+206F) and the interlinear annotation marks
 * (U+FFF9–U+FFFB). Right-to-left letters need none of them (the reader's bidi algorithm orders Arabic and
 * Hebrew by itself), and the joiners (ZWJ in emoji, ZWNJ in Persian) are not among them.
 */
export const FORMAT_CONTROL =
  '\\u061C\\u200E\\u200F\\u202A-\\u202E\\u2066-\\u2069\\u206A-\\u206F\\uFFF9-\\uFFFB';

/**
 * Line breaks (LF, VT, FF, CR, NEL, line and paragraph separators): a one-line field (a name, a phone number)
 * holds none, so it cannot add lines to an e-mail.
 */
export const LINE_BREAK = '\\n\\v\\f\\r\\u0085\\u2028\\u2029';

/**
 * Any character that has no place in one line of shown text: every control character (tabs and line breaks
 * too), the line and paragraph separators, and the invisible format controls.
 */
export const NOT_SHOWN_IN_A_LINE = new RegExp(
  `[\\u0000-\\u001F\\u007F-\\u009F\\u2028\\u2029${FORMAT_CONTROL}]`,
  'u',
);

/**
 * Characters that show nothing by themselves, beside the spaces (`\\s`, which covers the BOM too): NEL, the soft
 * hyphen, the Mongolian vowel separator, the zero-width space and joiners, the word joiner and the invisible
 * operators (U+2060–U+2064), the combining grapheme joiner, the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0),
 * the Khmer inherent vowels (U+17B4, U+17B5), the Braille blank, the variation selectors, the tag characters
 * (U+E0000–U+E007F, which spell the flags of England, Scotland and Wales after a black flag), and any combining
 * mark (`\\p{M}`), which marks the letter before it and is nothing alone; and, beyond that list, every format
 * character (`\\p{Cf}`: the musical, shorthand and hieroglyph format controls among them) and every character
 * Unicode says to draw as nothing when a font lacks it (`\\p{Default_Ignorable_Code_Point}`). A name of these alone
 * is as blank as one of spaces; beside letters they are text as typed (an accent, an emoji's style, a flag).
 */
export const INVISIBLE =
  '\\s\\u0085\\u00AD\\u034F\\u115F\\u1160\\u17B4\\u17B5\\u180E\\u200B-\\u200D\\u2060-\\u2064\\u2800\\u3164\\uFE00-\\uFE0F\\uFFA0' +
  '\\u{E0000}-\\u{E007F}\\u{E0100}-\\u{E01EF}\\p{M}\\p{Cf}\\p{Default_Ignorable_Code_Point}';

/**
 * At least one character that shows: not only spaces, nor only the invisible ones ({@link INVISIBLE}), nor control
 * characters or format controls. For a regular expression with the `u` flag (as ajv compiles the schemas').
 */
export const VISIBLE_CHARACTER = `[^${INVISIBLE}${CONTROL_CHARACTER}${FORMAT_CONTROL}]`;
