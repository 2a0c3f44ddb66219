import { describe, expect, it } from 'vitest';
import { hostnameOf, isAllowedHost, parseAllowedHosts } from '../src/allowed-hosts.js';

describe('allowed hosts (DNS rebinding)', () => {
  const policy = { publicHostname: 'portal.example', allowedHosts: ['portal.internal'] };

  it('should name the host of a Host value without its port, case or final dot', () => {
    expect(hostnameOf('Portal.Example.:8080')).toBe('portal.example');
    expect(hostnameOf('portal.example')).toBe('portal.example');
    expect(hostnameOf('[::1]:3000')).toBe('[::1]');
    expect(hostnameOf('[FE80::1]')).toBe('[fe80::1]');
    expect(hostnameOf('127.0.0.1:80')).toBe('127.0.0.1');
  });

  it('should answer its public name, ALLOWED_HOSTS, addresses and localhost, whatever the port', () => {
    for (const host of [
      'portal.example',
      'PORTAL.EXAMPLE:443',
      'portal.example.',
      'portal.internal:3000',
      '127.0.0.1:3000',
      '10.1.2.3',
      '[::1]:3000',
      '[2001:db8::1]',
      'localhost',
      'localhost:5173',
      'app.localhost',
      '',
    ]) {
      expect(isAllowedHost(host, policy), host).toBe(true);
    }
  });

  it('should not answer other names, nor look-alikes of its own', () => {
    for (const host of [
      'evil.example',
      'portal.example.evil.example',
      'evil-portal.example',
      'xportal.example',
      'portal.internal.evil.example',
      'localhost.evil.example',
      'localhost.evil.example.',
      'portal%2eexample',
      '[::1',
      '[not-an-address]',
      '127.0.0.1.evil.example',
      '2130706433',
      'a',
    ]) {
      expect(isAllowedHost(host, policy), host).toBe(false);
    }
  });

  it('should answer any name with ALLOWED_HOSTS=*', () => {
    expect(
      isAllowedHost('evil.example', { publicHostname: 'portal.example', allowedHosts: null }),
    ).toBe(true);
    expect(parseAllowedHosts(' * ')).toEqual({ hosts: null, problems: [] });
  });
});
