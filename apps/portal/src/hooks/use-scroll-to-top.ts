import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';

/** Where the page scrolls to on a new path (the spec's unnamed constant 0, decisions.md §5). */
export const SCROLL_TOP_OFFSET = 0;

/**
 * On every path change (not on the first render): scroll the page to the top, smoothly unless the user prefers
 * reduced motion, and move keyboard focus to the main area so the next Tab starts in the new page.
 */
export function useScrollToTopOnPathChange(pathname: string, main?: RefObject<HTMLElement | null>) {
  const previous = useRef(pathname);
  useEffect(() => {
    if (previous.current === pathname) return;
    previous.current = pathname;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    main?.current?.focus({ preventScroll: true });
    window.scrollTo({ top: SCROLL_TOP_OFFSET, behavior: reduceMotion ? 'auto' : 'smooth' });
  }, [pathname, main]);
}
