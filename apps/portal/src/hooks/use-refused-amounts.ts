import { useCallback, useState } from 'react';

/**
 * The amount fields showing a typed amount they refused (`MoneySliderField`'s `onProblemChange`): the field then
 * keeps its last accepted value, so figures worked out from it are for that amount, and a page says so.
 *
 * @returns whether any field shows a refused amount, and the callback each field reports to
 */
export function useRefusedAmounts<F extends string>(): {
  anyRefused: boolean;
  onAmountRefused: (field: F, isRefused: boolean) => void;
} {
  const [refused, setRefused] = useState<ReadonlySet<F>>(new Set());
  const onAmountRefused = useCallback((field: F, isRefused: boolean) => {
    setRefused((current) => {
      if (current.has(field) === isRefused) return current;
      const next = new Set(current);
      if (isRefused) next.add(field);
      else next.delete(field);
      return next;
    });
  }, []);
  return { anyRefused: refused.size > 0, onAmountRefused };
}
