import { isIPv4, isIPv6 } from 'node:net';

/**
 * Which host names the server answers for (the request's `Host`, or `X-Forwarded-Host` behind a trusted proxy).
 *
 * DNS rebinding: a page of `http://attacker.example:3000` can have its name resolve to 127.0.0.1 a moment later,
 * and its scripts then talk to a portal run on the same machine as its own origin: they read its answers and post
 * with `Origin: http://attacker.example:3000`, which the cross-site check took for the site's own (`Origin` equal to
 * `http://` + `Host`). The browser names the attacker's host in `Host`, so a server that answers only for its own
 * names is out of reach (found by the thirtieth session's HTTP probe; fixed in the thirty-first).
 *
 * Always answered: the host of `PUBLIC_URL`, IP addresses (a page's address, not a name anyone can point
 * elsewhere), and `localhost` with its subdomains (browsers resolve them to the machine itself, RFC 6761 §6.3).
 * `ALLOWED_HOSTS` adds names (a proxy's internal name for the server, another public name); `*` answers any.
 */
export interface HostPolicy {
  /** The host name of PUBLIC_URL, lowercase (an IPv6 address in brackets). */
  readonly publicHostname: string;
  /** Further names from ALLOWED_HOSTS, lowercase, or `null` for any name (`ALLOWED_HOSTS=*`). */
  readonly allowedHosts: readonly string[] | null;
}

/** A host name as ALLOWED_HOSTS takes it: DNS labels of letters, digits and hyphens, dot-separated. */
const HOST_NAME =
  /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9_-]{0,61}[a-z0-9])?)*$/;

/**
 * Reads ALLOWED_HOSTS (`portal.internal, portal.example`): the names, lowercase and without a final dot, and the
 * problems of entries that are no host name (a port, a scheme, a path or a wildcard other than `*` alone).
 */
export function parseAllowedHosts(raw: string): {
  hosts: readonly string[] | null;
  problems: string[];
} {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 1 && entries[0] === '*') return { hosts: null, problems: [] };
  const problems: string[] = [];
  const hosts: string[] = [];
  for (const entry of entries) {
    const name = withoutFinalDot(entry.toLowerCase());
    if (HOST_NAME.test(name) || isIPv4(name)) hosts.push(name);
    else {
      problems.push(
        `ALLOWED_HOSTS must list host names separated by commas, such as "portal.example, portal.internal", ` +
          `without a scheme, port or path, or be "*" alone (got "${entry}").`,
      );
    }
  }
  return { hosts, problems };
}

/** The host name a `Host` value names (`Portal.Example.:8080` → `portal.example`; `[::1]:80` → `[::1]`). */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end === -1 ? host.toLowerCase() : host.slice(0, end + 1).toLowerCase();
  }
  const colon = host.lastIndexOf(':');
  return withoutFinalDot((colon === -1 ? host : host.slice(0, colon)).toLowerCase());
}

/** Whether the server answers a request naming `host` (its `Host`, or `X-Forwarded-Host` behind a trusted proxy). */
export function isAllowedHost(host: string, policy: HostPolicy): boolean {
  // HTTP/1.0 may send no Host (a 1.1 request without one is refused before this): no browser does.
  if (host === '') return true;
  const name = hostnameOf(host);
  if (name.startsWith('[')) return name.endsWith(']') && isIPv6(name.slice(1, -1));
  if (isIPv4(name)) return true;
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === policy.publicHostname) return true;
  return policy.allowedHosts === null || policy.allowedHosts.includes(name);
}

function withoutFinalDot(name: string): string {
  return name.endsWith('.') ? name.slice(0, -1) : name;
}
