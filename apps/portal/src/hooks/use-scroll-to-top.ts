import { useEffect, useRef } from 'react';
import type { RefObject } from 'react';

import { hasNavigatedInApp } from '@/lib/app-navigation';

/** Where the page scrolls to on a new path (the spec's unnamed constant 0, decisions.md §5). */
export const SCROLL_TOP_OFFSET = 0;

/**
 * On every change of page: scroll the page to the top, smoothly unless the user prefers reduced motion, and move
 * keyboard focus to the main area so the next Tab starts in the new page. `page` is the path, and for a page whose
 * query names what it shows (an article's id and type: see {@link pageKey}) the query too.
 *
 * The first render is a new page too when the app navigated to it (from the 404 or the error page, outside the
 * hub: the link that had focus is gone, and focus had fallen to the document), not when the document loaded with
 * it (the app's first paint, a typed address, a reload), where focus stays where the browser put it
 * (`lib/app-navigation.ts`).
 */
export function useScrollToTopOnPathChange(page: string, main?: RefObject<HTMLElement | null>) {
  // Read on the first render only: a page load's first page is not a change of page.
  const previous = useRef<string | null>(hasNavigatedInApp() ? null : page);
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
