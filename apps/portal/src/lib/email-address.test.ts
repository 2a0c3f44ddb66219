import { describe, expect, it } from 'vitest';

import { isEmailAddress } from './email-address';

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
