/**
 * What a spreadsheet may skip or trim before it reads a cell: whitespace and line breaks (any Unicode space,
 * NBSP, U+3000, U+2028…), other control characters, invisible format characters (zero-width space and joiners,
 * word joiner, BOM) and quote marks. LibreOffice trims spaces on request, and a reader that strips quotes or
 * invisible characters would otherwise find a formula right behind them.
 */
const SKIPPED = String.raw`[\s\0-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2060-\u2064\ufeff"'\u2018\u2019\u201c\u201d]*`;

/**
 * A cell a spreadsheet may run as a formula: one that starts with a control character (tab, CR, LF, NUL…), or
 * whose first character after {@link SKIPPED} ones is = + - @ or their full-width forms (Excel in East Asian
 * locales takes ＝ for =).
 */
const FORMULA = new RegExp(String.raw`^(?:[\0-\x1f]|${SKIPPED}[=+\-@\uff1d\uff0b\uff0d\uff20])`);

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
