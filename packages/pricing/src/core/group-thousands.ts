/**
 * Digits of a safe integer grouped in threes with commas (en-GB), without Intl so every runtime
 * prints the same.
 *
 * @example groupThousands(-1234567) // '-1,234,567'
 */
export function groupThousands(n: number): string {
  const digits = String(Math.abs(n));
  let grouped = '';
  for (let end = digits.length; end > 0; end -= 3) {
    const part = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped === '' ? part : `${part},${grouped}`;
  }
  return n < 0 ? `-${grouped}` : grouped;
}
