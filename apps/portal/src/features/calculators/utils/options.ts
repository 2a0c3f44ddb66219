/**
 * The option of `options` a select answered with, or `undefined` when it is not one of them.
 *
 * @example optionOf([12, 24, 36] as const, '24') // 24
 */
export function optionOf<T extends string | number>(
  options: readonly T[],
  value: string,
): T | undefined {
  return options.find((option) => String(option) === value);
}

/** A slider limit's range, without its default. */
export function rangeOf(limit: { min: number; max: number; step: number }) {
  return { min: limit.min, max: limit.max, step: limit.step };
}
