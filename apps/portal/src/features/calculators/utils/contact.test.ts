import { describe, expect, it } from 'vitest';
import { contactFromUser, missingContactFields } from './contact';

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
