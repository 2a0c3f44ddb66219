/** JSON schemas shared by the routes (also the OpenAPI document's components). */
export const errorSchema = {
  type: 'object',
  description: 'Every error: a plain message safe to show.',
  properties: { error: { type: 'string' } },
  required: ['error'],
  additionalProperties: false,
} as const;

export const clientParams = {
  type: 'object',
  properties: {
    client: { type: 'string', description: 'The client prefix, e.g. demo', maxLength: 100 },
  },
  required: ['client'],
  additionalProperties: false,
} as const;

/** Error responses a route can give, for the OpenAPI document. */
export function errors(...statuses: number[]): Record<number, typeof errorSchema> {
  return Object.fromEntries(statuses.map((s) => [s, errorSchema]));
}

/**
 * Control characters other than tabs and line breaks (C0, DEL, C1), as the inside of a character class: they
 * show nothing, and some drive terminals (ESC, CSI), where the staff tool prints what users typed.
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
 * At least one character that shows: not only spaces, nor only the invisible ones (zero-width space and
 * joiners, word joiner, soft hyphen, Mongolian vowel separator, and NEL, which \s leaves out; \s already covers
 * the BOM and the other spaces), nor control characters.
 */
export const VISIBLE_CHARACTER = `[^\\s\\u0085\\u00AD\\u180E\\u200B-\\u200D\\u2060${CONTROL_CHARACTER}${FORMAT_CONTROL}]`;

/**
 * Line breaks (LF, VT, FF, CR, NEL, line and paragraph separators), as the inside of a regular expression's
 * character class: a one-line field (a name, a phone number) holds none, so it cannot add lines to an e-mail.
 */
export const LINE_BREAK = '\\n\\v\\f\\r\\u0085\\u2028\\u2029';

/** What no one-line field holds: line breaks, control characters and the invisible format controls. */
export const NOT_IN_ONE_LINE = `${LINE_BREAK}${CONTROL_CHARACTER}${FORMAT_CONTROL}`;

/**
 * A required, non-blank, one-line text field: every route's user-entered line of text (names, phone numbers,
 * the activity item) is one of these, so each refuses line breaks, control characters and bidi controls alike.
 */
export const requiredText = (maxLength: number, description?: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength,
    pattern: `^[^${NOT_IN_ONE_LINE}]*${VISIBLE_CHARACTER}[^${NOT_IN_ONE_LINE}]*$`,
    ...(description === undefined ? {} : { description }),
  }) as const;

export const emailField = { type: 'string', format: 'email', maxLength: 254 } as const;

export const contentItemSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    type: { type: 'string', enum: ['case_study', 'insight'] },
    title: { type: 'string' },
    description_text: { type: 'string' },
    image_url: { type: ['string', 'null'] },
  },
  required: ['id', 'type', 'title', 'description_text', 'image_url'],
  additionalProperties: false,
} as const;

export const topicSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    title: { type: 'string' },
    description: { type: 'string', description: 'Sanitised HTML' },
    pro_tip: { type: ['string', 'null'], description: 'Sanitised HTML' },
  },
  required: ['id', 'title', 'description', 'pro_tip'],
  additionalProperties: false,
} as const;
