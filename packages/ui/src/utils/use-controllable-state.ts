import { useCallback, useRef, useState } from 'react';

interface ControllableStateOptions<T> {
  /** The controlled value; `undefined` means uncontrolled. */
  value: T | undefined;
  /** The starting value when uncontrolled. */
  defaultValue: T;
  /** Called with every new value, controlled or not (not when it is unchanged). */
  onChange: ((value: T) => void) | undefined;
}

/**
 * State that a parent may control (`value` + `onChange`) or leave to the component (`defaultValue`),
 * as in Radix's `useControllableState`.
 */
export function useControllableState<T>({
  value,
  defaultValue,
  onChange,
}: ControllableStateOptions<T>): [T, (next: T) => void] {
  const [uncontrolledValue, setUncontrolledValue] = useState(defaultValue);
  const isControlled = value !== undefined;
  const current = isControlled ? value : uncontrolledValue;

  // Read the latest value and callback without re-creating the setter on every render.
  const latest = useRef({ current, isControlled, onChange });
  latest.current = { current, isControlled, onChange };

  const setValue = useCallback((next: T) => {
    const { current: previous, isControlled: controlled, onChange: notify } = latest.current;
    if (Object.is(previous, next)) return;
    if (!controlled) setUncontrolledValue(next);
    notify?.(next);
  }, []);

  return [current, setValue];
}
