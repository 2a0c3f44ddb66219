import { useParams, useRouteLoaderData } from 'react-router-dom';

import { paths } from '@/config/paths';
import { isClient } from '@/lib/answer-shapes';
import { apiFetch } from '@/lib/api-client';
import type { Client } from '@/types/api';

/** The id of the `/:client` route, whose loader fetches the client before any page renders. */
export const CLIENT_ROUTE_ID = 'client';

/** GET /api/{client}: the client, its branding and who is logged in (no session needed). */
export function getClient(prefix: string): Promise<Client> {
  return apiFetch<Client>(paths.api.client(prefix), { shape: isClient });
}

/**
 * The client as the `/:client` route loaded it, without SWR: for the login page and the theme, which must stay light
 * (the hub's pages use `useClient`, which keeps it fresh).
 */
export function useLoadedClient(): { prefix: string; client: Client } {
  const { client: prefix } = useParams();
  const client = useRouteLoaderData(CLIENT_ROUTE_ID) as Client | undefined;
  if (!prefix || !client)
    throw new Error('useLoadedClient() is only available under the /:client route.');
  return { prefix, client };
}
