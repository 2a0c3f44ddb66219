/**
 * `£`, then digits with or without thousands separators (commas, or one kind of space throughout: a space, a
 * no-break space, a narrow no-break space or a thin space, as a figure pasted from a spreadsheet or a document
 * may have), an optional decimal part and an optional multiplier (`k`, `m`, `bn`, any case). Spaces are allowed
 * after `£` and before the multiplier.
 *
 * A digit (or a point and a digit) must follow the spaces after `£`: found by the thirty-first session's portal
 * probe, with the amount optional the two runs of spaces met, and `£`, 30,000 spaces and a letter pasted in the
 * field froze the tab for two seconds as it was read (a quadratic backtrack; 100,000 spaces, twenty seconds).
 */
const MONEY_INPUT =
  /^£?\s*(?=\.?\d)(?<whole>\d{1,3}(?:,\d{3})+|\d{1,3}(?<space>[ \u00A0\u202F\u2009])\d{3}(?:\k<space>\d{3})*|\d*)(?:\.(?<fraction>\d+))?\s*(?<multiplier>k|m|bn)?$/i;

/**
 * Characters that draw nothing: a soft hyphen, zero-width spaces and joiners, direction marks, embeddings and
 * isolates, a word joiner, a byte-order mark. A figure copied from a web page, a PDF or a calculator may carry them
 * (Windows' Calculator wraps what it copies in U+202D…U+202C): the field shows `1,000,000`, and was refused.
 */
const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/g;

/** Full-width forms (U+FF01-U+FF5E: digits, comma, point, letters), as an East Asian input method types them. */
const FULL_WIDTH = /[\uFF01-\uFF5E]/g;
const FULL_WIDTH_OFFSET = 0xfee0;

/** The typed text with what draws nothing taken out and full-width forms (`５００ｋ`, `￡`, U+3000) made plain. */
function plainText(text: string): string {
  return text
    .replace(INVISIBLE, '')
    .replace(FULL_WIDTH, (char) => String.fromCharCode(char.charCodeAt(0) - FULL_WIDTH_OFFSET))
    .replace(/\uFFE1/g, '£')
    .replace(/\u3000/g, ' ');
}

/** Powers of ten of the multipliers. */
const MULTIPLIER_DIGITS = { k: 3, m: 6, bn: 9 } as const satisfies Record<string, number>;

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER);

/**
 * Reads an amount of money typed by a user as a whole number of pounds, exactly: the digits are
 * shifted as text and converted with BigInt, never multiplied as floating point (`£1.15m` is
 * 1,150,000, not 1,149,999.9999).
 *
 * Accepts `12500000`, `12,500,000`, `12 500 000`, `£12,500,000`, `£ 1,234,567` (surrounding spaces ignored),
 * `12.5m` / `£12.5M`, `750k` / `£750K`, `1.25bn`, and decimals that are whole pounds (`1234.00`); characters that
 * draw nothing (a zero-width space, direction marks) are ignored and full-width forms (`５，０００，０００`) read as
 * their plain ones.
 * Returns `null` for anything else: empty or junk text, negative amounts, pence (`1.5`), more precision
 * than whole pounds (`1.2345678m`), badly placed or mixed separators (`12,50,000`, `12 500,000`) or amounts beyond
 * `Number.MAX_SAFE_INTEGER`. Range checks are the caller's job.
 *
 * @example
 * parseMoneyInput('£12.5m'); // 12500000
 * parseMoneyInput('750k'); // 750000
 * parseMoneyInput(' £ 1,234,567 '); // 1234567
 * parseMoneyInput('1.5'); // null (not whole pounds)
 * parseMoneyInput('-500'); // null
 */
export function parseMoneyInput(text: string): number | null {
  const pounds = readMoneyAmount(text);
  return pounds === null || pounds > MAX_SAFE ? null : Number(pounds);
}

/**
 * The amount typed, as {@link parseMoneyInput} reads it, exactly and however large: `null` only for text that is not
 * a whole, non-negative amount of pounds. The field tells a readable amount too large for any range (forty digits)
 * from text it cannot read.
 */
export function readMoneyAmount(text: string): bigint | null {
  const match = MONEY_INPUT.exec(plainText(text).trim());
  if (!match?.groups) return null;
  const whole = (match.groups.whole ?? '').replace(/[^\d]/g, '');
  const fraction = match.groups.fraction ?? '';
  const multiplier = match.groups.multiplier?.toLowerCase() as
    keyof typeof MULTIPLIER_DIGITS | undefined;
  if (whole === '' && fraction === '') return null;

  const shift = multiplier ? MULTIPLIER_DIGITS[multiplier] : 0;
  // Digits of the fraction beyond the shift would be pence or less: allowed only when all zero.
  const kept = fraction.slice(0, shift);
  const dropped = fraction.slice(shift);
  if (/[^0]/.test(dropped)) return null;

  return BigInt(`${whole}${kept.padEnd(shift, '0')}` || '0');
}
