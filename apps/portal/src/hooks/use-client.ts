import { useParams, useRouteLoaderData } from 'react-router-dom';
import useSWR from 'swr';

import { paths } from '@/config/paths';
import type { Client } from '@/types/api';

import { CLIENT_ROUTE_ID, getClient } from './use-loaded-client';

/**
 * The current client (from the `:client` URL segment) and the logged-in user, as SWR data seeded by the route
 * loader. It revalidates when the window regains focus, so an expired session sends the user back to the login page;
 * call `mutate()` after anything that changes the session.
 */
export function useClient() {
  const { client: prefix } = useParams();
  const loaded = useRouteLoaderData(CLIENT_ROUTE_ID) as Client | undefined;
  if (!prefix) throw new Error('useClient() is only available under the /:client route.');

  const { data, mutate } = useSWR(paths.api.client(prefix), () => getClient(prefix), {
    fallbackData: loaded,
    revalidateOnMount: loaded === undefined,
    revalidateIfStale: false,
  });
  if (!data) throw new Error(`The client "${prefix}" is not loaded yet.`);
  return { prefix, client: data, mutate };
}
