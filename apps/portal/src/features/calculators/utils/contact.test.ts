import { describe, expect, it } from 'vitest';
import {
  contactFromUser,
  invalidContactFields,
  isEmailAddress,
  missingContactFields,
} from './contact';

describe('missingContactFields', () => {
  it('lists nothing when every field has text', () => {
    expect(
      missingContactFields({
        name: 'Ann Lee',
        telephone: '07700 900123',
        email: 'ann@example.com',
      }),
    ).toEqual([]);
  });

  it('counts white space and invisible characters as empty, in screen order', () => {
    expect(
      missingContactFields({ name: '\u200B', telephone: '07700 900123', email: ' \u00AD ' }),
    ).toEqual(['name', 'email']);
  });
});

describe('contactFromUser', () => {
  it('joins the names it has and keeps the phone and e-mail', () => {
    expect(
      contactFromUser({
        first_name: ' Ann ',
        last_name: '',
        phone: '07700 900123',
        email: 'ann@example.com',
      }),
    ).toEqual({ name: 'Ann', telephone: '07700 900123', email: 'ann@example.com' });
  });
});

describe('invalidContactFields', () => {
  it('adds an e-mail address the API would refuse to the empty fields, in screen order', () => {
    expect(
      invalidContactFields({ name: '', telephone: '07700 900123', email: 'ann.example.com' }),
    ).toEqual(['name', 'email']);
  });

  it('lists nothing for a complete contact with a real address (spaces around it are trimmed when sent)', () => {
    expect(
      invalidContactFields({ name: 'Ann', telephone: '07700 900123', email: ' ann@example.com ' }),
    ).toEqual([]);
  });
});

describe('isEmailAddress', () => {
  it.each(['ann@example.com', 'ann.lee+quotes@mail.example.co.uk', "o'brien@example.ie"])(
    'takes %s',
    (email) => expect(isEmailAddress(email)).toBe(true),
  );

  it.each([
    'ann.example.com',
    'ann@',
    '@example.com',
    'ann@example',
    'ann@exa mple.com',
    'ann@example.com, bob@example.com',
    'Ann <ann@example.com>',
  ])('refuses %s', (email) => expect(isEmailAddress(email)).toBe(false));
});
