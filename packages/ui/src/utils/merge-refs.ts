import type { Ref, RefCallback } from 'react';

/**
 * One ref callback that feeds several refs (callback or object), e.g. a component's own ref and the
 * one its user passed.
 *
 * @example
 * <input ref={mergeRefs(localRef, props.ref)} />
 */
export function mergeRefs<T>(...refs: readonly (Ref<T> | undefined)[]): RefCallback<T> {
  return (node) => {
    const cleanups = refs.map((ref) => {
      if (typeof ref === 'function') return ref(node);
      if (ref) ref.current = node;
      return undefined;
    });
    return () => {
      refs.forEach((ref, index) => {
        const cleanup = cleanups[index];
        if (typeof cleanup === 'function') cleanup();
        else if (typeof ref === 'function') ref(null);
        else if (ref) ref.current = null;
      });
    };
  };
}
