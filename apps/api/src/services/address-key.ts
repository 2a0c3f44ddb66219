import { isIPv4, isIPv6 } from 'node:net';

/**
 * The client-address key a per-address limit counts against. IPv4 addresses count one by one; an IPv6 address
 * counts by its /64 network, the smallest block a provider gives one subscriber (who could otherwise take a new
 * address for every attempt). An IPv4 address written as IPv6 (`::ffff:192.0.2.1`) counts as the IPv4 one.
 *
 * @example addressKey('2001:db8:1:2:a:b:c:d') // '2001:db8:1:2::/64'
 * @example addressKey('::ffff:192.0.2.7') // '192.0.2.7'
 */
export function addressKey(ip: string): string {
  const address = ip.replace(/%.*$/, ''); // a zone index (`fe80::1%eth0`) is local to the server
  if (!isIPv6(address)) return address;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  if (mapped !== undefined && isIPv4(mapped)) return mapped;
  const groupsOf = (part: string | undefined): string[] =>
    part === undefined || part === ''
      ? []
      : // A dotted IPv4 ending stands for the last two groups.
        part.split(':').flatMap((group) => (group.includes('.') ? ['0', '0'] : [group]));
  const [head, tail] = address.toLowerCase().split('::');
  const headGroups = groupsOf(head);
  const tailGroups = groupsOf(tail);
  const zeros = new Array<string>(8 - headGroups.length - tailGroups.length).fill('0');
  const network = [...headGroups, ...zeros, ...tailGroups]
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''));
  return `${network.join(':')}::/64`;
}
