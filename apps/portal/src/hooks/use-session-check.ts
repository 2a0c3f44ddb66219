import { useEffect, useState } from 'react';
import { useSWRConfig } from 'swr';

import { paths } from '@/config/paths';
import type { Client } from '@/types/api';

import { getClient } from './use-loaded-client';

/** Calls refused together (the dashboard's two) share one check of the session, per client. */
const checks = new Map<string, Promise<boolean>>();

/**
 * Whether `prefix`'s session is live, asked of GET /api/{client} (`getClient`): one check per client at a time,
 * shared by every caller while it is out. The client's answer is handed to `cache` (the hub's client data: when it
 * says logged out, the hub says the session has ended). A check that itself fails answers `false`: the refusal
 * stands.
 */
export function checkSession(prefix: string, cache: (client: Client) => void): Promise<boolean> {
  let check = checks.get(prefix);
  if (check === undefined) {
    check = getClient(prefix).then(
      (client) => {
        cache(client);
        return client.logged_in;
      },
      () => false,
    );
    void check.finally(() => checks.delete(prefix));
    checks.set(prefix, check);
  }
  return check;
}

/**
 * Whether `prefix`'s session is live, checked once for `error` (a call refused for want of a session, a 401):
 * `undefined` while checking, and when there is nothing to check (`prefix` undefined). The client's answer goes to
 * SWR's cache under the client's key, where `useClient` (and the hub's layout) read it.
 */
export function useSessionCheck(prefix: string | undefined, error: unknown): boolean | undefined {
  const { mutate } = useSWRConfig();
  const [result, setResult] = useState<{ error: unknown; loggedIn: boolean } | null>(null);
  useEffect(() => {
    if (prefix === undefined) return;
    let live = true;
    void checkSession(prefix, (client) => {
      void mutate(paths.api.client(prefix), client, { revalidate: false });
    }).then((loggedIn) => {
      if (live) setResult({ error, loggedIn });
    });
    return () => {
      live = false;
    };
  }, [prefix, error, mutate]);
  return prefix !== undefined && result !== null && result.error === error
    ? result.loggedIn
    : undefined;
}
