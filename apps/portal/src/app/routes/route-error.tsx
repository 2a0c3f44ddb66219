import { isRouteErrorResponse, useRouteError, useRouteLoaderData } from 'react-router-dom';

import { documentTitleOf } from '@/components/ui/page-heading';
import { env } from '@/config/env';
import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { mailtoHref } from '@/lib/links';
import type { Client } from '@/types/api';

import { NotFoundRoute, Page } from './not-found';

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
  return (
    <Page>
      <title>{documentTitleOf('Oops!', client)}</title>
      <h1>Oops!</h1>
      <p>Sorry, an unexpected error has occurred.</p>
      <p>
        <i>{describeError(error)}</i>
      </p>
      <p>
        If this keeps happening, please <a href={mailtoHref(email)}>contact us</a>.
      </p>
    </Page>
  );
}
