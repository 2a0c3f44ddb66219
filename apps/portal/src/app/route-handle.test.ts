import { matchRoutes, type UIMatch } from 'react-router-dom';
import { describe, expect, it } from 'vitest';

import { pageOf } from './route-handle';
import { routeObjects } from './router';

/** The page name the hub records as the view of `path`, through the real route table. */
function pageAt(path: string): string | null {
  const matches = matchRoutes(routeObjects, path) ?? [];
  return pageOf(
    matches.map((match): UIMatch => ({
      id: match.route.id ?? match.pathname,
      pathname: match.pathname,
      params: match.params,
      data: undefined,
      loaderData: undefined,
      handle: match.route.handle as unknown,
    })),
  );
}

describe('pageOf', () => {
  it('should name the hub pages by constant names, never by words of their address', () => {
    expect(pageAt('/demo/dashboard')).toBe('dashboard');
    expect(pageAt('/demo/info')).toBe('info');
    expect(pageAt('/demo/calculator/building-warranty')).toBe('building-warranty-calculator');
  });

  // Found by the twenty-second session's portal probe: the article's view was `${type}:${id}` from the address,
  // whether or not such an article existed; the article now records its own view once it has loaded.
  it('should leave an article’s view to the article', () => {
    expect(pageAt('/demo/article')).toBeNull();
  });
});
