import { toScaled } from './decimal';
import type { RateBand } from '../tables/types';

/** A banded table prepared for lookups: ascending band starts and their values. */
export interface PreparedBands<T> {
  readonly from: readonly number[];
  readonly values: readonly T[];
}

/**
 * Index of the band `value` falls in: the last band whose start is at or below it; -1 when it is
 * below the first band.
 *
 * @example bandIndex([1, 500_000, 5_000_000], 4_999_999) // 1
 */
export function bandIndex(from: readonly number[], value: number): number {
  let index = -1;
  for (let i = 0; i < from.length; i += 1) {
    if ((from[i] as number) <= value) index = i;
    else break;
  }
  return index;
}

/**
 * Check that a banded table's starts strictly ascend (a table bug otherwise) and parse its rates
 * into scaled integers.
 */
export function prepareRateBands(name: string, bands: readonly RateBand[]): PreparedBands<number> {
  bands.forEach((band, i) => {
    const previous = bands[i - 1];
    if (previous !== undefined && previous.from >= band.from) {
      throw new Error(`${name}: bands must ascend (${previous.from} then ${band.from}).`);
    }
  });
  return {
    from: bands.map((band) => band.from),
    values: bands.map((band) => toScaled(band.rate)),
  };
}
