import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addressKey } from '../../src/services/address-key.js';

describe('addressKey', () => {
  it('keeps IPv4 addresses, and IPv4 written as IPv6, one by one', () => {
    expect(addressKey('192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::FFFF:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('::ffff:c000:207')).toBe('192.0.2.7');
    expect(addressKey('0:0:0:0:0:ffff:192.0.2.7')).toBe('192.0.2.7');
    expect(addressKey('0000:0000:0000:0000:0000:FFFF:C000:0207')).toBe('192.0.2.7');
  });

  it('drops the port (and brackets) a proxy may append to the address', () => {
    expect(addressKey('192.0.2.7:51234')).toBe('192.0.2.7');
    expect(addressKey('192.0.2.7:1')).toBe(addressKey('192.0.2.7:2'));
    expect(addressKey('[::ffff:192.0.2.7]:443')).toBe('192.0.2.7');
    expect(addressKey('[2001:db8:1:2::7]:51234')).toBe('2001:db8:1:2::/64');
    expect(addressKey('[2001:db8:1:2::7]')).toBe('2001:db8:1:2::/64');
    expect(addressKey(' 192.0.2.7 ')).toBe('192.0.2.7');
  });

  it('counts an IPv6 address by its /64 network, however it is written', () => {
    expect(addressKey('2001:db8:1:2:a:b:c:d')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:0DB8:0001:0002:ffff:0:0:1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('2001:db8:0:0:1::')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('64:ff9b::192.0.2.1')).toBe('64:ff9b:0:0::/64');
  });

  it('gives every address of one /64 the same key, and addresses of two /64s different keys', () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((n) => n.toString(16));
    fc.assert(
      fc.property(
        fc.array(group, { minLength: 8, maxLength: 8 }),
        fc.array(group, { minLength: 4, maxLength: 4 }),
        (a, host) => {
          const one = a.join(':');
          const sameNetwork = [...a.slice(0, 4), ...host].join(':');
          expect(addressKey(one)).toBe(addressKey(sameNetwork));
          const otherNetwork = [
            ...a.slice(0, 3),
            ((parseInt(a[3] ?? '0', 16) + 1) % 0x10000).toString(16),
            ...host,
          ].join(':');
          expect(addressKey(otherNetwork)).not.toBe(addressKey(one));
        },
      ),
    );
  });
});
