import { useEffect } from 'react';

import type { Client } from '@/types/api';

/** The channel every tab of the portal (one origin) shares: who each tab was loaded for. */
const CHANNEL = 'firm-portal-session';

interface SessionNote {
  prefix: string;
  /** The e-mail (lower case) of the user the tab was loaded for, '' when it was loaded logged out. */
  who: string;
}

const whoOf = (client: Client): string => (client.logged_in ? client.email.toLowerCase() : '');

/**
 * Keeps the tabs of one client in step with the session they share (one cookie). Every login and logout ends in a
 * page load (the dashboard, the login page); that page tells the other tabs who it was loaded for, and a tab of
 * the same client loaded for someone else loads itself again. Before, a tab still showing the user before a login
 * in another tab submitted a quote under the new session with the earlier user's details, and a tab kept
 * "Welcome, …" after a logout elsewhere until the window was focused (found by the seventeenth session's portal
 * probe). Drafts belong to their user (lib/tab-data.ts), so the reloaded tab shows none of the earlier user's.
 */
export function useSessionAcrossTabs(client: Client): void {
  const { prefix } = client;
  const who = whoOf(client);
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return undefined;
    const channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const note = event.data as Partial<SessionNote> | null;
      if (note?.prefix === prefix && typeof note.who === 'string' && note.who !== who) {
        window.location.reload();
      }
    };
    channel.postMessage({ prefix, who } satisfies SessionNote);
    return () => channel.close();
  }, [prefix, who]);
}
