import { paths } from '@/config/paths';

/** Where the page a user left for the login page is kept (this tab only, like the drafts). */
export const RETURN_PATH_KEY = 'portal:return-to';

/**
 * Remembers the current page before a "Log in again" link leaves it, so that logging in comes back to it (and to
 * the draft kept there) rather than to the dashboard.
 */
export function rememberReturnPath(prefix: string, path = currentPath()): void {
  const safe = safeReturnPath(prefix, path);
  try {
    if (safe === null) sessionStorage.removeItem(RETURN_PATH_KEY);
    else sessionStorage.setItem(RETURN_PATH_KEY, safe);
  } catch {
    // Storage refused (private mode, quota): the login simply goes to the dashboard.
  }
}

/** The remembered page, once (it is forgotten as it is read), or `null` when there is none or it is unsafe. */
export function takeReturnPath(prefix: string): string | null {
  let stored: string | null;
  try {
    stored = sessionStorage.getItem(RETURN_PATH_KEY);
    sessionStorage.removeItem(RETURN_PATH_KEY);
  } catch {
    return null;
  }
  return stored === null ? null : safeReturnPath(prefix, stored);
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
