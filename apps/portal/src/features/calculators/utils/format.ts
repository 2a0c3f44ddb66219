const rateFormat = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 6 });

/**
 * A rate that is already a percentage, as the firm writes it.
 *
 * @example formatPercent(1.18) // '1.18%'
 */
export function formatPercent(rate: number): string {
  return `${rateFormat.format(rate)}%`;
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
  return `${count.toLocaleString('en-GB')} ${noun}${count === 1 ? '' : 's'}`;
}
