import { groupThousands } from '../core/group-thousands';
import { NOT_WHOLE_POUNDS_MESSAGE, OUT_OF_RANGE_MESSAGE } from '../core/messages';
import { collect, throwIfAny, type Issues } from '../core/issues';

/** The largest amount formatted exactly: beyond it a double no longer holds every whole pound. */
const LARGEST = `£${groupThousands(Number.MAX_SAFE_INTEGER)}`;

/**
 * Format whole pounds the firm's way: en-GB, GBP, no decimals (decisions.md §5).
 *
 * @param n A whole number of pounds (a safe integer; negative amounts get a leading minus).
 *
 * @returns The amount as text, e.g. '£1,234,567'.
 *
 * @throws PricingInputError when n is not a safe integer: money here is always whole pounds.
 *
 * @example formatPounds(1234567) // '£1,234,567'
 */
export function formatPounds(n: number): string {
  if (!Number.isSafeInteger(n)) {
    const issues: Issues = [];
    if (Number.isInteger(n)) {
      // Whole, but too large to be exact (2 ** 53, 1e21): say so rather than "not whole".
      collect(issues, 'amount', OUT_OF_RANGE_MESSAGE, { got: n, min: `-${LARGEST}`, max: LARGEST });
    } else {
      collect(issues, 'amount', NOT_WHOLE_POUNDS_MESSAGE, { got: n });
    }
    throwIfAny(issues);
  }
  return n < 0 ? `-£${groupThousands(-n)}` : `£${groupThousands(n)}`;
}
