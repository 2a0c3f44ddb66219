import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';

/** Where the page scrolls to on a new path (the spec's unnamed constant 0, decisions.md §5). */
export const SCROLL_TOP_OFFSET = 0;

/**
 * On every change of page (not on the first render): scroll the page to the top, smoothly unless the user prefers
 * reduced motion, and move keyboard focus to the main area so the next Tab starts in the new page. `page` is the
 * path, and for a page whose query names what it shows (an article's id and type: see {@link pageKey}) the query
 * too.
 */
export function useScrollToTopOnPathChange(page: string, main?: RefObject<HTMLElement | null>) {
  const previous = useRef(page);
  useEffect(() => {
    if (previous.current === page) return;
    previous.current = page;
    const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
    main?.current?.focus({ preventScroll: true });
    window.scrollTo({ top: SCROLL_TOP_OFFSET, behavior: reduceMotion ? 'auto' : 'smooth' });
  }, [page, main]);
}

/**
 * What makes one page another, for {@link useScrollToTopOnPathChange}: the path, and on the article page its query
 * (a related article opened from an article is a new page: it kept the old scroll position, and focus fell to the
 * document with the link that had it; found by the twenty-fourth session's portal probe). Other queries are a
 * page's state (a search's text, the due-diligence thank-you), kept where the user is.
 */
export function pageKey(pathname: string, search: string, articlePath: string): string {
  return pathname.replace(/\/+$/, '').toLowerCase().endsWith(`/${articlePath}`)
    ? `${pathname}${search}`
    : pathname;
}
