import { createContext, useContext } from 'react';
import { useParams, useRouteLoaderData } from 'react-router-dom';
import useSWR from 'swr';

import { paths } from '@/config/paths';
import type { Client } from '@/types/api';

import { CLIENT_ROUTE_ID, getClient } from './use-loaded-client';

/**
 * The user the hub was opened for, held by the hub's layout (`app-root.tsx`) once their session has ended there:
 * `null` outside the hub, and while no session has ended.
 */
export const SessionEndedUser = createContext<Client | null>(null);

/**
 * The current client (from the `:client` URL segment) and the logged-in user, as SWR data seeded by the route
 * loader. It revalidates when the window regains focus, so the hub learns that a session has ended (it says so,
 * and keeps the page); call `mutate()` after anything that changes the session.
 *
 * After a session has ended in the hub, its pages go on with the user they were opened for: the drafts in the
 * tab belong to `prefix/email`, and a page drawn for the logged-out client (no e-mail) would take them for
 * someone else's and empty them, losing what was typed.
 */
export function useClient() {
  const { client: prefix } = useParams();
  const loaded = useRouteLoaderData(CLIENT_ROUTE_ID) as Client | undefined;
  const ended = useContext(SessionEndedUser);
  if (!prefix) throw new Error('useClient() is only available under the /:client route.');

  const { data, mutate } = useSWR(paths.api.client(prefix), () => getClient(prefix), {
    fallbackData: loaded,
    revalidateOnMount: loaded === undefined,
    revalidateIfStale: false,
  });
  if (!data) throw new Error(`The client "${prefix}" is not loaded yet.`);
  const client = !data.logged_in && ended !== null && ended.prefix === prefix ? ended : data;
  return { prefix, client, mutate };
}
