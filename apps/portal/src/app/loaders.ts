import { data, replace } from 'react-router-dom';
import type { LoaderFunctionArgs } from 'react-router-dom';

import { paths } from '@/config/paths';
import { getClient } from '@/hooks/use-loaded-client';
import { ApiError } from '@/lib/api-client';
import { bootAnswer } from '@/lib/boot';
import { takeReturnPath } from '@/lib/return-path';
import type { Client } from '@/types/api';

type Params = LoaderFunctionArgs['params'];

// Every redirect of a loader takes the place of the page it leaves (`replace`), never adds an entry to the history:
// the page redirected from was not shown. Found by the thirtieth session's portal probe: `redirect` pushed, so Back
// onto a page that redirects (the login page while logged in, a hub page after logging out) pushed its target again,
// and Back never got past it: after Log out, Back went from the login page to the login page for ever, and a user
// who had logged in by a login link could not go Back to the page before the portal.

/** The client routes' loaders run in parallel; they share one request per prefix while it is in flight. */
const inFlight = new Map<string, Promise<Client>>();

function fetchClientOnce(prefix: string): Promise<Client> {
  // The first page was served with the answer: no request.
  const served = bootAnswer<Client>(paths.api.client(prefix));
  if (served !== undefined) return Promise.resolve(served);
  let pending = inFlight.get(prefix);
  if (!pending) {
    pending = getClient(prefix).finally(() => inFlight.delete(prefix));
    inFlight.set(prefix, pending);
  }
  return pending;
}

const notFound = (message: string | null = null) =>
  data(message, { status: 404, statusText: 'Not Found' });

/** The client of the URL: an unknown client is the 404 page, any other failure the error page. */
async function loadClient(params: Params): Promise<{ prefix: string; client: Client }> {
  const prefix = params.client;
  if (!prefix) throw notFound();
  try {
    return { prefix, client: await fetchClientOnce(prefix) };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) throw notFound(error.message);
    throw error;
  }
}

/** `/:client`: GET /api/{client}. */
export async function clientLoader({ params }: LoaderFunctionArgs): Promise<Client> {
  return (await loadClient(params)).client;
}

/**
 * The hub's pages: without a session, go to the login page. The dashboard, where a login link lands, goes on to
 * the page this user's session ended on, when they left it by "Log in again" in this tab (an open login goes
 * there itself).
 */
export async function protectedLoader({ params, request }: LoaderFunctionArgs): Promise<null> {
  const { prefix, client } = await loadClient(params);
  if (!client.logged_in) throw replace(paths.app.login(prefix));
  if (new URL(request.url).pathname === paths.app.dashboard(prefix)) {
    const back = takeReturnPath(prefix, client.email);
    if (back !== null && back !== paths.app.dashboard(prefix)) throw replace(back);
  }
  return null;
}

/** The login page: someone already logged in goes straight to the dashboard. */
export async function loginLoader({ params }: LoaderFunctionArgs): Promise<null> {
  const { prefix, client } = await loadClient(params);
  if (client.logged_in) throw replace(paths.app.dashboard(prefix));
  return null;
}
