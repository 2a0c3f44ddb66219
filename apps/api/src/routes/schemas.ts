/** JSON schemas shared by the routes (also the OpenAPI document's components). */
import {
  CONTROL_CHARACTER,
  FORMAT_CONTROL,
  LINE_BREAK,
  VISIBLE_CHARACTER,
} from '../text-controls.js';

export { CONTROL_CHARACTER, FORMAT_CONTROL, LINE_BREAK, VISIBLE_CHARACTER };

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

/** The most characters of a first name or a last name at login. */
export const NAME_MAX_LENGTH = 100;

/**
 * The most characters of a full name (a quote's contact name, the due-diligence request's): a first and a last
 * name of the longest a login takes, with the space between. The portal fills the full name in from the login's
 * names, so a shorter cap refused every quote and request of such a user, in a field they may not see.
 */
export const FULL_NAME_MAX_LENGTH = 2 * NAME_MAX_LENGTH + 1;

/**
 * A phone number: digits, with spaces, `+`, brackets, dashes and dots (the login's `phone`, the calculators'
 * `telephone` and `contact_number`). Found by the twenty-fifth session's portal probe: the calculators took any
 * line of text ("call me", "+", "))))"), stored and e-mailed to the team as the number to call back on.
 */
export const phoneField = {
  ...requiredText(40),
  // With the spaces and dashes a pasted number may hold: no-break, thin and narrow no-break spaces, the no-break
  // hyphen and the en dash (the portal's `lib/phone-number.ts` takes the same).
  pattern:
    '^[0-9+()\\-. \u00A0\u2009\u202F\u2011\u2013]*[0-9][0-9+()\\-. \u00A0\u2009\u202F\u2011\u2013]*$',
} as const;

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
