import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client-address key a per-address limit counts against. IPv4 addresses count one by one; an IPv6 address
 * counts by its /64 network, the smallest block a provider gives one subscriber (who could otherwise take a new
 * address for every attempt). An IPv4 address written as IPv6 (`::ffff:192.0.2.1`, `::ffff:c000:201`, or with its
 * zeros written out) counts as the IPv4 one.
 *
 * Behind a trusted proxy (`TRUST_PROXY=true`) the address is what the proxy appended to `X-Forwarded-For`, and some
 * proxies append the client's port with it (`192.0.2.1:51234`, `[2001:db8::1]:51234`; Azure's gateways do): the
 * port is dropped, and the brackets. Kept, every new connection of one client was a new key, and the per-address
 * login limit let through any number of attempts (found by the thirtieth session's probe).
 *
 * @example addressKey('2001:db8:1:2:a:b:c:d') // '2001:db8:1:2::/64'
 * @example addressKey('::ffff:192.0.2.7') // '192.0.2.7'
 * @example addressKey('192.0.2.7:51234') // '192.0.2.7'
 */
export function addressKey(ip: string): string {
  const address = withoutPort(ip.trim()).replace(/%.*$/, ''); // a zone index (`fe80::1%eth0`) is local to the server
  if (!isIPv6(address)) return address;
  const groupsOf = (part: string | undefined): number[] =>
    part === undefined || part === ''
      ? []
      : part.split(':').flatMap((group) => {
          if (!group.includes('.')) return [Number.parseInt(group, 16)];
          // A dotted IPv4 ending stands for the last two groups.
          const [a = 0, b = 0, c = 0, d = 0] = group.split('.').map(Number);
          return [a * 256 + b, c * 256 + d];
        });
  const [head, tail] = address.split('::');
  const headGroups = groupsOf(head);
  const tailGroups = groupsOf(tail);
  const zeros = new Array<number>(8 - headGroups.length - tailGroups.length).fill(0);
  const groups = [...headGroups, ...zeros, ...tailGroups];
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((group) => group.toString(16))
    .join(':')}::/64`;
}

/** `192.0.2.1:51234` → `192.0.2.1`; `[2001:db8::1]:51234` and `[2001:db8::1]` → `2001:db8::1`; others as given. */
function withoutPort(address: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d{1,5})?$/.exec(address)?.[1];
  if (bracketed !== undefined && isIPv6(bracketed)) return bracketed;
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(address)?.[1];
  if (v4 !== undefined && isIPv4(v4)) return v4;
  return address;
}
