/**
 * Freeze a table and everything inside it, so no caller can change a limit, a label or a guide
 * cell that the pricing functions read: the exported tables are the ones the library validates
 * and prices with.
 *
 * @param value Plain data: objects, arrays and primitives.
 *
 * @returns The same value, frozen all the way down.
 *
 * @example deepFreeze({ units: { min: 1, max: 250 } }).units.max = 1e9 // throws in strict mode
 */
export function deepFreeze<const T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
