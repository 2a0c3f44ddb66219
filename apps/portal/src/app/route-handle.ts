import type { UIMatch } from 'react-router-dom';

/**
 * What a hub route tells the layout: the page name recorded as its view activity, or null for a page that records
 * its own once it has something to show (an article: only one that exists, under its own type and id).
 */
export interface RouteHandle {
  page: string | null;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'page' in handle;
}

/** The deepest matched route's page name, or null when no route names one. */
export function pageOf(matches: readonly UIMatch[]): string | null {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) return handle.page;
  }
  return null;
}
