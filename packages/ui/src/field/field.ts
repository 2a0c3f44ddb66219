/**
 * Joins the ids of the texts that describe a control into an `aria-describedby` value, skipping empty
 * ones; `undefined` when there are none (so no empty attribute reaches the DOM).
 *
 * @example
 * describedBy('hint-1', undefined, 'error-1'); // 'hint-1 error-1'
 * describedBy(undefined, ''); // undefined
 */
export function describedBy(
  ...ids: readonly (string | false | null | undefined)[]
): string | undefined {
  const present = ids.filter((id): id is string => typeof id === 'string' && id.trim() !== '');
  return present.length > 0 ? present.join(' ') : undefined;
}
