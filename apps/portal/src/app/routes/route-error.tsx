import { Button } from '@firm/ui';
import { isRouteErrorResponse, useRouteError, useRouteLoaderData } from 'react-router-dom';

import { env } from '@/config/env';
import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { ApiError } from '@/lib/api-client';
import { messageOf } from '@/lib/errors';
import { documentTitleOf } from '@/lib/document-title';
import { mailtoHref } from '@/lib/links';
import type { Client } from '@/types/api';

import { PageCodeError } from '../page-code-error';

import { NotFoundRoute, Page, ArrivalHeading } from './not-found';

// One chunk for both error pages, fetched once the first page is drawn (`error-pages.tsx`).
export { NotFoundRoute };

/** What went wrong, in the user's words: the status text (or status), else the error's message. */
export function describeError(error: unknown): string {
  if (isRouteErrorResponse(error)) {
    return error.statusText || String(error.status);
  }
  if (error instanceof Error && error.message) return error.message;
  return 'Unknown error';
}

/** The error page (spec §2, §8): 'Oops!', the apology, what went wrong and a contact-us mail link. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const client = useRouteLoaderData(CLIENT_ROUTE_ID) as Client | undefined;
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundRoute />;

  console.error(error);
  const email = client?.contact.email || env.fallbackContactEmail;
  if (error instanceof PageCodeError) {
    return (
      <Page>
        <title>{documentTitleOf('Page not loaded', client)}</title>
        <ArrivalHeading>This page could not be loaded</ArrivalHeading>
        <p>
          The connection to our server failed while the page was loading. Check your connection,
          then load the page again: what you have typed in this tab is kept.
        </p>
        <p>
          <Button type="button" onClick={() => window.location.reload()}>
            Load the page again
          </Button>
        </p>
        <p>
          If this keeps happening, please <a href={mailtoHref(email)}>contact us</a>.
        </p>
      </Page>
    );
  }
  // A call the page needed failed (the client's own answer, fetched when the page did not carry it): said in the
  // portal's words, never the browser's ("Failed to fetch"), with a way to try again (found by the nineteenth
  // session's probe: no button at all), also when its answer did not come in time (found by the thirtieth: the
  // wait's own reason, "The server did not answer in time.", and no button).
  const failedCall =
    error instanceof ApiError ||
    error instanceof TypeError ||
    (error instanceof DOMException && error.name === 'TimeoutError');
  return (
    <Page>
      <title>{documentTitleOf('Oops!', client)}</title>
      <ArrivalHeading>Oops!</ArrivalHeading>
      <p>Sorry, an unexpected error has occurred.</p>
      <p>
        <i>{failedCall ? messageOf(error) : describeError(error)}</i>
      </p>
      {failedCall ? (
        <p>
          <Button type="button" onClick={() => window.location.reload()}>
            Load the page again
          </Button>
        </p>
      ) : null}
      <p>
        If this keeps happening, please <a href={mailtoHref(email)}>contact us</a>.
      </p>
    </Page>
  );
}
