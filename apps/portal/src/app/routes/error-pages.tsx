import { use, useContext } from 'react';

import { InsideMainLandmark } from '@/lib/main-landmark';
import { showStartFailure } from '@/lib/start-failure';

import type * as RouteError from './route-error';

type ErrorPages = typeof RouteError;

/** The error pages' code once fetched; `null` when it could not be. */
let pages: ErrorPages | null | undefined;
let loading: Promise<ErrorPages | null> | undefined;

/**
 * Fetches the code of the 404 and error pages (`route-error.tsx`, `not-found.tsx`), once. The login page does not
 * load it before it is drawn: the app fetches it once the first page is drawn (`app.tsx`), so that it is there when
 * the connection has dropped since; a first page that is itself a 404 or an error waits for it under the loading
 * note. A fetch that failed is not tried again: a browser keeps a failed module import for the life of the page.
 */
export function loadErrorPages(): Promise<ErrorPages | null> {
  loading ??= import('./route-error').then(
    (module) => (pages = module),
    (error: unknown) => {
      console.error(error);
      return (pages = null);
    },
  );
  return loading;
}

/** The error pages' code: at once when fetched, else suspends until it is (or could not be). */
function useErrorPages(): ErrorPages | null {
  return pages !== undefined ? pages : use(loadErrorPages());
}

/** The router's error element (route-error.tsx's RouteErrorBoundary). */
export function RouteErrorPage() {
  const code = useErrorPages();
  return code ? <code.RouteErrorBoundary /> : <CodeMissing />;
}

/** The router's 404 page (not-found.tsx's NotFoundRoute). */
export function NotFoundPage() {
  const code = useErrorPages();
  return code ? <code.NotFoundRoute /> : <CodeMissing />;
}

/** The error pages' own code could not be fetched: the page the entry shows when the app's could not be. */
function CodeMissing() {
  const insideMain = useContext(InsideMainLandmark);
  return (
    <div
      ref={(node) => {
        if (node !== null && node.firstChild === null)
          showStartFailure(node, insideMain ? 'div' : 'main');
      }}
    />
  );
}
