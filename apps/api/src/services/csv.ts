import { CONTROL_CHARACTER, FORMAT_CONTROL, INVISIBLE } from '../text-controls.js';

/**
 * What a spreadsheet may skip or trim before it reads a cell: whitespace and line breaks (any Unicode space,
 * NBSP, U+3000, U+2028…), control characters, every character that shows nothing by itself as the API's own
 * blank-text rule counts them ({@link INVISIBLE}: zero-width and format characters, joiners, the Braille blank,
 * the Hangul fillers, variation selectors, tag characters, a lone combining mark…), the bidi controls, and quote
 * marks. LibreOffice trims spaces on request, and a reader that strips quotes or invisible characters would
 * otherwise find a formula right behind them. (Found by the nineteenth session's API probe: only a short list of
 * invisible characters was skipped, so U+2800, U+3164, U+180E, U+034F, U+FE0F, tag characters or a combining
 * mark before `=1+1` passed.)
 */
const SKIPPED = `[${INVISIBLE}${CONTROL_CHARACTER}${FORMAT_CONTROL}\\0-\\x1f\\x7f-\\x9f"'\\u2018\\u2019\\u201c\\u201d]*`;

/**
 * The characters a spreadsheet may start a formula with: = + - @, their full-width forms (Excel in East Asian
 * locales takes ＝ for =), their small forms (U+FE62 ﹢, U+FE63 ﹣, U+FE66 ﹦, U+FE6B ﹫) and the minus sign U+2212,
 * which some readers fold to the ASCII ones.
 */
const FORMULA_START = '=+\\-@\\uff1d\\uff0b\\uff0d\\uff20\\ufe62\\ufe63\\ufe66\\ufe6b\\u2212';

/**
 * A cell a spreadsheet may run as a formula: one that starts with a control character (tab, CR, LF, NUL…), or
 * whose first character after {@link SKIPPED} ones is one of {@link FORMULA_START}.
 */
const FORMULA = new RegExp(`^(?:[\\0-\\x1f]|${SKIPPED}[${FORMULA_START}])`, 'u');

/** NUL, and a surrogate without its other half. */
const UNWRITABLE = /\0|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * One CSV cell: quoted when needed, and a cell a spreadsheet could run as a formula (see {@link FORMULA}:
 * = + - @ first, also behind spaces, quotes or invisible characters, or a control character first) neutralised
 * with a leading ' so it is shown as text. NUL (which ends the line for some readers) becomes U+FFFD, as do
 * lone surrogates (not encodable as UTF-8).
 */
export function csvCell(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (FORMULA.test(text)) text = `'${text}`;
  text = text.replace(UNWRITABLE, '\ufffd');
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** CSV text (RFC 4180, CRLF line ends) from a header and rows. */
export function toCsv(header: string[], rows: (string | number | null | undefined)[][]): string {
  return [header, ...rows].map((row) => row.map(csvCell).join(',')).join('\r\n') + '\r\n';
}
