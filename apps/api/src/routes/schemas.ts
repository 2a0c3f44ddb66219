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
 * At least one character that shows: not only spaces, nor only the invisible ones (zero-width space and
 * joiners, word joiner, soft hyphen, Mongolian vowel separator, and NEL, which \s leaves out; \s already covers
 * the BOM and the other spaces).
 */
export const VISIBLE_CHARACTER = '[^\\s\\u0085\\u00AD\\u180E\\u200B-\\u200D\\u2060]';

/**
 * Line breaks (LF, VT, FF, CR, NEL, line and paragraph separators), as the inside of a regular expression's
 * character class: a one-line field (a name, a phone number) holds none, so it cannot add lines to an e-mail.
 */
export const LINE_BREAK = '\\n\\v\\f\\r\\u0085\\u2028\\u2029';

/** A required, non-blank, one-line text field. */
export const requiredText = (maxLength: number, description?: string) =>
  ({
    type: 'string',
    minLength: 1,
    maxLength,
    pattern: `^[^${LINE_BREAK}]*${VISIBLE_CHARACTER}[^${LINE_BREAK}]*$`,
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
