import { useEffect } from 'react';

import { forgetTabData } from '@/lib/tab-data';
import type { Client } from '@/types/api';

/** The channel every tab of the portal (one origin) shares: who each tab was loaded for. */
const CHANNEL = 'firm-portal-session';

/** A page load's note: whom the tab was loaded for. */
interface SessionNote {
  prefix: string;
  /** The user the tab was loaded for (see {@link whoOf}), '' when it was loaded logged out. */
  who: string;
}

/** A logout's note, sent as the user logs out in a tab (before the page load that follows it). */
interface LogoutNote {
  prefix: string;
  loggedOut: true;
}

/** Tells the client's other tabs that its user is logging out here: they forget what they kept for that user. */
export function announceLogout(prefix: string): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHANNEL);
  channel.postMessage({ prefix, loggedOut: true } satisfies LogoutNote);
  channel.close();
}

/**
 * Who a tab was loaded for: the e-mail (lower case) and the name and phone given with it. An open client's login
 * proves no one's identity, so the same e-mail with another name is someone else (found by the eighteenth session's
 * portal probe: a tab reloaded for "Mallory" under Alice's e-mail showed Alice's estimate, details and reference).
 */
const whoOf = (client: Client): string =>
  client.logged_in
    ? JSON.stringify([
        client.email.toLowerCase(),
        client.first_name,
        client.last_name,
        client.phone,
      ])
    : '';

/**
 * Keeps the tabs of one client in step with the session they share (one cookie). Every login and logout ends in a
 * page load (the dashboard, the login page); that page tells the other tabs who it was loaded for, and a tab of
 * the same client loaded for someone else loads itself again. Before, a tab still showing the user before a login
 * in another tab submitted a quote under the new session with the earlier user's details, and a tab kept
 * "Welcome, …" after a logout elsewhere until the window was focused (found by the seventeenth session's portal
 * probe). The reloaded tab shows none of the earlier user's work.
 */
export function useSessionAcrossTabs(client: Client): void {
  const { prefix } = client;
  const who = whoOf(client);
  useEffect(() => {
    if (typeof BroadcastChannel === 'undefined') return undefined;
    const channel = new BroadcastChannel(CHANNEL);
    // A logout in another tab, not yet followed by its page load (the cookie may still be there).
    let loggedOutElsewhere = false;
    channel.onmessage = (event: MessageEvent<unknown>) => {
      const note = event.data as Partial<SessionNote & LogoutNote> | null;
      if (note?.prefix !== prefix) return;
      if (note.loggedOut === true) {
        loggedOutElsewhere = true;
        return;
      }
      if (typeof note.who !== 'string' || note.who === who) return;
      // A tab loaded for a user who logged out, or for whom someone else has logged in, in another tab forgets
      // what it kept for them, as the tab where that happened did (lib/tab-data.ts): whoever the tab shows next
      // starts from nothing (found by the eighteenth session's portal probe: only that one tab forgot). A session
      // that merely ended (it expired) keeps the tab's drafts for its user's next login, as in the tab itself.
      if (who !== '' && (note.who !== '' || loggedOutElsewhere)) forgetTabData();
      window.location.reload();
    };
    channel.postMessage({ prefix, who } satisfies SessionNote);
    return () => channel.close();
  }, [prefix, who]);
}
