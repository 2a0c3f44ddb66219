import type { UIMatch } from 'react-router-dom';

/** What a hub route tells the layout: the page name recorded as its view activity. */
export interface RouteHandle {
  page: string | ((searchParams: URLSearchParams) => string);
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && 'page' in handle;
}

/** The deepest matched route's page name, or null when no route names one. */
export function pageOf(matches: readonly UIMatch[], searchParams: URLSearchParams): string | null {
  for (let index = matches.length - 1; index >= 0; index -= 1) {
    const handle = matches[index]?.handle;
    if (isRouteHandle(handle)) {
      return typeof handle.page === 'function' ? handle.page(searchParams) : handle.page;
    }
  }
  return null;
}
