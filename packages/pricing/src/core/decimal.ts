/**
 * Exact decimal rates as integers. Every rate in the tables is a decimal string with at most
 * {@link RATE_DECIMALS} decimal places; it is parsed once, at module load, into an integer count of
 * 1/{@link RATE_SCALE}ths, so the quote functions compute with integers only.
 */

/** A rate exactly as the firm writes it: '1.13', '0.0085', '0'. */
export type DecimalString = `${number}`;

/** Decimal places a rate may have. */
export const RATE_DECIMALS = 4;

/** 10 ** RATE_DECIMALS: a scaled rate is the rate × RATE_SCALE, an integer. */
export const RATE_SCALE = 10_000;

const DECIMAL_PATTERN = /^(\d+)(?:\.(\d+))?$/;

/**
 * Parse a rate string into an integer number of 1/RATE_SCALE ths.
 *
 * @param rate A non-negative decimal string with at most RATE_DECIMALS decimal places.
 *
 * @returns The rate × RATE_SCALE as a safe integer.
 *
 * @example toScaled('1.13') // 11300
 */
export function toScaled(rate: string): number {
  const match = DECIMAL_PATTERN.exec(rate);
  const whole = match?.[1];
  const fraction = match?.[2] ?? '';
  if (whole === undefined || fraction.length > RATE_DECIMALS) {
    throw new Error(
      `Rate table entry ${JSON.stringify(rate)} is not a decimal with at most ${RATE_DECIMALS} places.`,
    );
  }
  const scaled = Number(whole) * RATE_SCALE + Number(fraction.padEnd(RATE_DECIMALS, '0'));
  if (!Number.isSafeInteger(scaled)) {
    throw new Error(`Rate table entry ${JSON.stringify(rate)} is too large.`);
  }
  return scaled;
}

/**
 * Render a scaled rate as its shortest exact decimal string.
 *
 * @example scaledToString(11600) // '1.16'
 */
export function scaledToString(scaled: number): string {
  const whole = Math.trunc(scaled / RATE_SCALE);
  const fraction = String(scaled - whole * RATE_SCALE)
    .padStart(RATE_DECIMALS, '0')
    .replace(/0+$/, '');
  return fraction === '' ? String(whole) : `${whole}.${fraction}`;
}

/**
 * Convert a scaled rate to the JavaScript number that prints exactly as the decimal does (the
 * nearest double to '1.16' prints as 1.16; adding 0.85 + 0.31 as doubles would not).
 *
 * @example scaledToNumber(11600) // 1.16
 */
export function scaledToNumber(scaled: number): number {
  return Number(scaledToString(scaled));
}

/**
 * Floor of a / b for a non-negative safe integer a and a positive integer b, exactly: the
 * remainder of two safe integers is exact, and so is dividing an exact multiple.
 *
 * @example floorDiv(1_004_999_999, 100) // 10_049_999
 */
export function floorDiv(a: number, b: number): number {
  return (a - (a % b)) / b;
}
