/**
 * A number as en-GB writes it (`1,234.5`), with at most `maxFractionDigits` decimals and no trailing zeros: what
 * `Intl.NumberFormat('en-GB', { maximumFractionDigits })` gives, without Intl, whose first use costs a slow phone
 * tens of milliseconds while the calculator page loads.
 */
export function formatDecimal(value: number, maxFractionDigits: number): string {
  if (!Number.isFinite(value) || Math.abs(value) >= 1e21) return String(value);
  // Rounded half up on the number's shortest decimal form, as Intl does (0.8995 → 0.9 at 3 digits, where
  // toFixed, working on the binary value 0.89949…, gives 0.899).
  const shortest = String(Math.abs(value));
  const plain = shortest.includes('e') ? Math.abs(value).toFixed(20) : shortest;
  const [whole = '0', fraction = ''] = plain.split('.');
  const digits = [...(whole + fraction.slice(0, maxFractionDigits).padEnd(maxFractionDigits, '0'))];
  if ((fraction[maxFractionDigits] ?? '0') >= '5') {
    let at = digits.length - 1;
    while (at >= 0 && digits[at] === '9') {
      digits[at] = '0';
      at -= 1;
    }
    if (at >= 0) digits[at] = String(Number(digits[at]) + 1);
    else digits.unshift('1');
  }
  const cut = digits.length - maxFractionDigits;
  const grouped = digits
    .slice(0, cut)
    .join('')
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const decimals = digits.slice(cut).join('').replace(/0+$/, '');
  return `${value < 0 || Object.is(value, -0) ? '-' : ''}${grouped}${decimals === '' ? '' : `.${decimals}`}`;
}

/**
 * A rate that is already a percentage, as the firm writes it.
 *
 * @example formatPercent(1.18) // '1.18%'
 */
export function formatPercent(rate: number): string {
  return `${formatDecimal(rate, 6)}%`;
}

/**
 * A rate given as a fraction, shown as a percentage. Display only: the multiplication by 100 is
 * rounded to 12 significant digits so binary noise (0.0085 × 100 = 0.8500000000000001) never shows.
 *
 * @example formatFractionAsPercent(0.0085) // '0.85%'
 */
export function formatFractionAsPercent(fraction: number): string {
  return formatPercent(Number((fraction * 100).toPrecision(12)));
}

/**
 * A count with its noun.
 *
 * @example formatCount(1, 'unit') // '1 unit'
 * @example formatCount(24, 'month') // '24 months'
 */
export function formatCount(count: number, noun: string): string {
  return `${formatDecimal(count, 3)} ${noun}${count === 1 ? '' : 's'}`;
}
