import { describe, expect, it } from 'vitest';

import { mailtoHref } from './links';

describe('mailtoHref', () => {
  it('should link a plain address as it is', () => {
    expect(mailtoHref('team@advisory.example')).toBe('mailto:team@advisory.example');
  });

  it('should keep text that only looks odd (the XSS e2e shows it back as written)', () => {
    expect(mailtoHref(`javascript:__xss('email')//@evil.example`)).toBe(
      `mailto:javascript:__xss('email')//@evil.example`,
    );
  });

  describe('given an address that would add headers, recipients or a body to the mail', () => {
    it.each([
      ['a@b.co?bcc=spy%40evil.example', 'mailto:a@b.co%3Fbcc=spy%2540evil.example'],
      [
        'help?bcc=spy%40evil.example&body=Hi@b.co',
        'mailto:help%3Fbcc=spy%2540evil.example%26body=Hi@b.co',
      ],
      ['a@b.co,spy@evil.example', 'mailto:a@b.co%2Cspy@evil.example'],
      ['a@b.co%2Cspy%40evil.example', 'mailto:a@b.co%252Cspy%2540evil.example'],
      ['a@b.co#x', 'mailto:a@b.co%23x'],
      ['a @b.co\r\nBcc: x', 'mailto:a%20@b.co%0D%0ABcc:%20x'],
    ])('should encode %j so the link addresses exactly that text', (address, href) => {
      expect(mailtoHref(address)).toBe(href);
      const url = new URL(href);
      // Nothing after the address: no headers (?…), no fragment; the one address decodes back to the text.
      expect(url.search).toBe('');
      expect(url.hash).toBe('');
      expect(decodeURIComponent(url.pathname)).toBe(address);
    });
  });
});
