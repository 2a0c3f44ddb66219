import {
  characterCount,
  CONTROL_CHARACTER,
  FORMAT_CONTROL,
  hasHiddenCharacters,
  HIDDEN_CHARACTERS_MESSAGE,
  isBlank,
} from '@/lib/text';
import type { DueDiligenceDraft } from './stores/draft-store';

/** The required text fields (spec §5) and the message under each when it is empty. */
export const REQUIRED_FIELDS = {
  projectName: 'Enter the project name',
  projectAddress: 'Enter the project address',
  cityAndPostcode: 'Enter the city and postcode',
  projectDescription: 'Enter a short description of the project',
} as const satisfies Partial<Record<keyof DueDiligenceDraft, string>>;

export type RequiredField = keyof typeof REQUIRED_FIELDS;

/** The text fields in the form's order (all of them required). */
export const TEXT_FIELDS = Object.keys(REQUIRED_FIELDS) as RequiredField[];

/**
 * The text fields as the API takes them (`FIELDS` in apps/api/src/routes/api/due-diligence.ts): the form
 * service's name, the label, the most characters (code points) it holds as sent, and whether it may hold line
 * breaks.
 */
export const TEXT_FIELD_RULES: Record<
  RequiredField,
  { name: string; label: string; max: number; multiline: boolean }
> = {
  projectName: { name: 'SingleLine', label: 'Project name', max: 200, multiline: false },
  projectAddress: { name: 'SingleLine1', label: 'Project address', max: 500, multiline: false },
  cityAndPostcode: { name: 'SingleLine2', label: 'City and postcode', max: 200, multiline: false },
  projectDescription: {
    name: 'SingleLine3',
    label: 'Project description',
    max: 5000,
    multiline: true,
  },
};

/** What a field holding a character that cannot be read (a lone surrogate, U+FFFD) says. */
export const UNREADABLE_CHARACTERS_MESSAGE =
  'Remove the characters that cannot be read (shown as �) from this field';

/** What the description (which may hold line breaks) says when it holds a control character or a bidi mark. */
export const HIDDEN_CONTROLS_MESSAGE =
  'Remove the hidden characters (such as text-direction marks) from this field';

/**
 * A lone surrogate (half of a character, pasted from broken text), which the browser sends as U+FFFD, or U+FFFD
 * itself: the API refuses either as "not valid UTF-8 text".
 */
const UNREADABLE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]|\uFFFD/;

/** What no field holds, the description included: the API's `HIDDEN_CONTROL` (NUL among them). */
const HIDDEN_CONTROL = new RegExp(`[${CONTROL_CHARACTER}${FORMAT_CONTROL}]`, 'u');

/** A line break as a textarea holds it: the browser sends each as CRLF in a multipart form. */
const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * A field's length as the API counts it: in characters (code points) of the value as the browser sends it,
 * trimmed, with each line break sent as CR LF (two characters).
 */
export function sentCharacterCount(value: string): number {
  return characterCount(value.trim().replace(LINE_BREAK, '\r\n'));
}

/** `5000` as `5,000`. */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** What a field over its limit says: the limit and how many the field holds, in characters. */
export function tooLongMessage(field: RequiredField, value: string): string {
  const count = sentCharacterCount(value);
  const lineBreaks = TEXT_FIELD_RULES[field].multiline && /[\r\n]/.test(value.trim());
  return (
    `Use at most ${grouped(TEXT_FIELD_RULES[field].max)} characters ` +
    `(this has ${grouped(count)}${lineBreaks ? '; a line break counts as two' : ''})`
  );
}

/**
 * What a text field says when the request cannot be sent with it, as the API would judge it, or `undefined`:
 * empty (or only invisible characters), holding a character that cannot be read (a lone surrogate), a line break
 * outside the description, a control character or a text-direction mark, or too long. The API refused these
 * too, but in its own words (`The field "SingleLine" (Project name) is too long.`) and not at the field.
 *
 * @example textFieldMessage({ ...EMPTY_DRAFT, projectName: 'a'.repeat(201) }, 'projectName') // 'Use at most 200 characters (this has 201)'
 */
export function textFieldMessage(
  draft: DueDiligenceDraft,
  field: RequiredField,
): string | undefined {
  const value = draft[field];
  if (isBlank(value)) return REQUIRED_FIELDS[field];
  const sent = value.trim();
  if (UNREADABLE.test(sent)) return UNREADABLE_CHARACTERS_MESSAGE;
  if (TEXT_FIELD_RULES[field].multiline) {
    if (HIDDEN_CONTROL.test(sent)) return HIDDEN_CONTROLS_MESSAGE;
  } else if (hasHiddenCharacters(sent)) {
    return HIDDEN_CHARACTERS_MESSAGE;
  }
  if (sentCharacterCount(value) > TEXT_FIELD_RULES[field].max) return tooLongMessage(field, value);
  return undefined;
}

/** The required fields left empty (blank counts as empty), in the form's order. */
export function missingFields(draft: DueDiligenceDraft): RequiredField[] {
  return TEXT_FIELDS.filter((field) => isBlank(draft[field]));
}

/** The text fields the request cannot be sent with, in the form's order. */
export function invalidFields(draft: DueDiligenceDraft): RequiredField[] {
  return TEXT_FIELDS.filter((field) => textFieldMessage(draft, field) !== undefined);
}

/** The amounts' labels in the form, for the API's messages about them (it says "GDV"). */
const AMOUNT_LABELS: Record<string, string> = {
  Currency1: 'Build cost',
  Currency2: 'Gross development value (GDV)',
  Currency: 'Loan amount',
};

/** The API's refusal of one field, in the form's words, and the text field it is about (or `null`). */
export interface FieldRefusal {
  field: RequiredField | null;
  message: string;
}

/** `The field "SingleLine" (Project name) is too long.`, `… contains a NUL character.` */
const FIELD_MESSAGE = /^The field "([^"]*)"(?: \(([^)]*)\))? (.+)$/s;
/** `Missing required field "SingleLine" (Project name).` */
const MISSING_MESSAGE = /^Missing required field "([^"]*)"(?: \(([^)]*)\))?\.$/s;

/**
 * The API's 400 about one field (`The field "SingleLine" (Project name) is too long.`) in the form's words and
 * with the field it is about, or `undefined` when the message names none of the form's fields. `sent` is the
 * draft the request was sent with. The API names the form service's fields ("SingleLine"), which mean nothing
 * to the user.
 */
export function fieldRefusalOf(message: string, sent: DueDiligenceDraft): FieldRefusal | undefined {
  const missing = MISSING_MESSAGE.exec(message.trim());
  const named = missing ?? FIELD_MESSAGE.exec(message.trim());
  if (named === null) return undefined;
  const [, name = '', apiLabel] = named;
  const field = TEXT_FIELDS.find((candidate) => TEXT_FIELD_RULES[candidate].name === name);
  if (field === undefined) {
    const label = AMOUNT_LABELS[name] ?? apiLabel;
    if (label === undefined || missing !== null) return undefined;
    return { field: null, message: `${label} ${named[3]}` };
  }
  if (missing !== null) return { field, message: REQUIRED_FIELDS[field] };
  const { multiline, max } = TEXT_FIELD_RULES[field];
  const rest = named[3] ?? '';
  let said: string;
  if (rest.startsWith('is too long')) {
    said =
      sentCharacterCount(sent[field]) > max
        ? tooLongMessage(field, sent[field])
        : `Shorten this field (it has ${grouped(sentCharacterCount(sent[field]))} characters)`;
  } else if (rest.startsWith('is not valid UTF-8')) {
    said = UNREADABLE_CHARACTERS_MESSAGE;
  } else if (
    rest.startsWith('contains a NUL') ||
    rest.startsWith('must not hold control characters') ||
    rest.startsWith('must be one line')
  ) {
    said = multiline ? HIDDEN_CONTROLS_MESSAGE : HIDDEN_CHARACTERS_MESSAGE;
  } else {
    said = `${TEXT_FIELD_RULES[field].label} ${rest}`;
  }
  return { field, message: said };
}
