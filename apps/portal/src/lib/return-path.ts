import { paths } from '@/config/paths';

/** Where the page a user left for the login page is kept (this tab only, like the drafts). */
export const RETURN_PATH_KEY = 'portal:return-to';

/**
 * Remembers the current page before a "Log in again" link leaves it, so that logging in comes back to it (and to
 * the draft kept there) rather than to the dashboard: for `email`, the user whose session ended there. Someone
 * else logging in on the tab goes to the dashboard, not to that user's page (a search holds what they searched
 * for in its address).
 */
export function rememberReturnPath(prefix: string, email: string, path = currentPath()): void {
  const safe = safeReturnPath(prefix, path);
  try {
    if (safe === null) sessionStorage.removeItem(RETURN_PATH_KEY);
    else
      sessionStorage.setItem(
        RETURN_PATH_KEY,
        JSON.stringify({ path: safe, email: sameEmail(email) }),
      );
  } catch {
    // Storage refused (private mode, quota): the login simply goes to the dashboard.
  }
}

/**
 * The page remembered for `email`, once (it is forgotten as it is read, whoever logs in), or `null` when there
 * is none, it was another user's, or it is unsafe.
 */
export function takeReturnPath(prefix: string, email: string): string | null {
  let stored: string | null;
  try {
    stored = sessionStorage.getItem(RETURN_PATH_KEY);
    sessionStorage.removeItem(RETURN_PATH_KEY);
  } catch {
    return null;
  }
  if (stored === null) return null;
  let saved: unknown;
  try {
    saved = JSON.parse(stored);
  } catch {
    return null;
  }
  if (typeof saved !== 'object' || saved === null) return null;
  const { path, email: owner } = saved as Record<string, unknown>;
  if (typeof path !== 'string' || owner !== sameEmail(email)) return null;
  return safeReturnPath(prefix, path);
}

/** An e-mail address as compared here: the API takes addresses without regard to case or outer spaces. */
function sameEmail(email: string): string {
  return email.trim().toLowerCase();
}

function currentPath(): string {
  return `${window.location.pathname}${window.location.search}`;
}

/**
 * `path` if it is a page of this client on this site, else `null`: anything else in the tab's storage (another
 * origin, a protocol-relative `//host`, a backslash the URL parser reads as a slash, another client, the login
 * page itself) must never decide where a login leads.
 */
export function safeReturnPath(prefix: string, path: string): string | null {
  if (!path.startsWith('/') || path.startsWith('//') || path.includes('\\')) return null;
  let url: URL;
  try {
    url = new URL(path, window.location.origin);
  } catch {
    return null;
  }
  if (url.origin !== window.location.origin) return null;
  const root = `${paths.app.root(prefix)}/`;
  if (!url.pathname.startsWith(root) || url.pathname === paths.app.login(prefix)) return null;
  return `${url.pathname}${url.search}`;
}
