import { useEffect, useRef } from 'react';
import { useNavigation } from 'react-router-dom';

import { isPlainClick } from './plain-click';

/** React Router's navigation on its way, as `useNavigation` gives it. */
type Navigation = ReturnType<typeof useNavigation>;

/**
 * Whether `navigation` (React Router's, `useNavigation`) is on its way to `href` (a path with its query): its
 * page's loader is fetching what the page opens with.
 */
export function isNavigatingTo(navigation: Navigation, href: string): boolean {
  if (navigation.state !== 'loading' || navigation.location === undefined) return false;
  const { pathname, search, hash } = navigation.location;
  const target = new URL(href, window.location.href);
  return (
    target.origin === window.location.origin &&
    target.pathname === pathname &&
    target.search === search &&
    target.hash === hash
  );
}

/**
 * Lets a link to the page already being opened do nothing when clicked again (a double click, Enter pressed twice):
 * the navigation on its way goes on. Found by the twenty-seventh session's probe: each click started the page's
 * navigation anew, which gave up the first one's requests and asked for them again (two requests for the
 * information hub's topics, the page shown later by the time between the clicks). A click that opens a new tab or
 * window, or on a link elsewhere, is left alone. Used by the hub's layout (not by the login page, whose bundle is
 * kept small).
 */
export function useIgnoreRepeatedLinkClicks(): void {
  const navigation = useNavigation();
  const current = useRef(navigation);
  useEffect(() => {
    current.current = navigation;
  }, [navigation]);
  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (!isPlainClick(event)) return;
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
      if (!(anchor instanceof HTMLAnchorElement)) return;
      if ((anchor.target !== '' && anchor.target !== '_self') || anchor.hasAttribute('download')) {
        return;
      }
      // Prevented before React Router's link sees it (this listens on the document, capturing): it then neither
      // navigates nor lets the browser follow the address.
      if (isNavigatingTo(current.current, anchor.href)) event.preventDefault();
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, []);
}
