import { useLayoutEffect } from 'react';

/**
 * A component to render just before the one under test, whose layout effect reads the DOM of the first commit
 * (`read`) before the component under test runs its own layout effects: what the first render put in the page,
 * before any effect could change it.
 */
export function firstRenderProbe(read: () => string) {
  const seen: string[] = [];
  function FirstRenderProbe() {
    useLayoutEffect(() => {
      seen.push(read());
    }, []);
    return null;
  }
  return { FirstRenderProbe, seen };
}
