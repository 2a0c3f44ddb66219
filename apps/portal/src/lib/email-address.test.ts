import { describe, expect, it } from 'vitest';

import { isEmailAddress, normaliseEmailAddress } from './email-address';

describe('isEmailAddress', () => {
  it.each([
    'ann@example.com',
    'ann.lee+quotes@mail.example.co.uk',
    "o'brien@example.ie",
    `${'a'.repeat(64)}@example.com`,
    `ann@${'b'.repeat(63)}.example.com`,
  ])('takes %s', (email) => expect(isEmailAddress(email)).toBe(true));

  it.each([
    'ann.example.com',
    'ann@',
    '@example.com',
    'ann@example',
    'ann@exa mple.com',
    'ann@example.com, bob@example.com',
    'Ann <ann@example.com>',
    // Past the lengths mail servers hold to (the API refuses them too): 65 before the @, a label of 64.
    `${'a'.repeat(65)}@example.com`,
    `ann@${'b'.repeat(64)}.example.com`,
  ])('refuses %s', (email) => expect(isEmailAddress(email)).toBe(false));
});

// Found by the twenty-eighth session's probe: an address copied with a zero-width space looked right and was refused.
describe('normaliseEmailAddress', () => {
  it('removes the invisible format characters a copied address carries, and the spaces around it', () => {
    expect(normaliseEmailAddress(' ann\u200B@example.com ')).toBe('ann@example.com');
    expect(normaliseEmailAddress('\u202Aann.lee@exam\u00ADple.co.uk\u202C')).toBe(
      'ann.lee@example.co.uk',
    );
    expect(isEmailAddress('ann\u2060@example.com\uFEFF')).toBe(true);
    // A space or a line break inside is no format character: still no address.
    expect(isEmailAddress('ann\u00A0@example.com')).toBe(false);
    expect(isEmailAddress('ann\u2028@example.com')).toBe(false);
  });
});
