import { describe, expect, it } from 'vitest';
import {
  CONTACT_FIELDS,
  contactFromUser,
  contactProblem,
  invalidContactFields,
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

describe('contactProblem', () => {
  const ok = { name: 'Ada Lovelace', telephone: '020 7946 0000', email: 'ada@example.com' };

  it('finds what the API would refuse in each field, as the field would be sent', () => {
    expect(CONTACT_FIELDS.map((field) => contactProblem(ok, field))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    for (const [contact, field, problem] of [
      [{ ...ok, name: '\u200B' }, 'name', 'missing'],
      [{ ...ok, name: 'Ada\u200FLovelace' }, 'name', 'hidden-characters'],
      [{ ...ok, name: 'Ada \u202Eecalevol' }, 'name', 'hidden-characters'],
      [{ ...ok, name: 'Ada\nLovelace' }, 'name', 'hidden-characters'],
      [{ ...ok, name: 'Ada\u0000' }, 'name', 'hidden-characters'],
      [{ ...ok, name: 'Ada \uD800' }, 'name', 'hidden-characters'],
      [{ ...ok, name: 'a'.repeat(202) }, 'name', 'too-long'],
      [{ ...ok, telephone: '0'.repeat(41) }, 'telephone', 'too-long'],
      [{ ...ok, telephone: '020\u2028 7946' }, 'telephone', 'hidden-characters'],
      [{ ...ok, email: `${'a'.repeat(250)}@b.co` }, 'email', 'too-long'],
      [{ ...ok, email: 'ada.example.com' }, 'email', 'not-an-address'],
      [{ ...ok, telephone: 'call me' }, 'telephone', 'not-a-phone-number'],
      [{ ...ok, telephone: '+' }, 'telephone', 'not-a-phone-number'],
      [{ ...ok, telephone: '))))' }, 'telephone', 'not-a-phone-number'],
      [{ ...ok, telephone: '020 7946 0000 ext 12' }, 'telephone', 'phone-extension'],
      [{ ...ok, telephone: '020 7946 0000 x12' }, 'telephone', 'phone-extension'],
      [{ ...ok, telephone: 'ext 12' }, 'telephone', 'not-a-phone-number'],
      // RFC 3966's extension; a telephone of invisible characters alone is empty.
      [{ ...ok, telephone: 'tel:+44-20-7946-0000;ext=12' }, 'telephone', 'phone-extension'],
      [{ ...ok, telephone: '\u202A\u200B\u202C' }, 'telephone', 'missing'],
      [{ ...ok, email: '\u200B\u202A' }, 'email', 'missing'],
      [{ ...ok, email: 'ada\u2028@example.com' }, 'email', 'hidden-characters'],
    ] as const) {
      expect(contactProblem(contact, field), JSON.stringify(contact[field]).slice(0, 40)).toBe(
        problem,
      );
    }
  });

  it('takes what the API takes: the longest values, spaces around them, emoji, joiners and right-to-left letters', () => {
    for (const contact of [
      // The longest full name: a first and a last name of 100 characters each (the most a login takes).
      { ...ok, name: ` ${'a'.repeat(100)} ${'b'.repeat(100)} ` },
      { ...ok, name: '👩‍💻'.repeat(10) },
      { ...ok, name: 'מבטח שלום', telephone: '0'.repeat(40) },
      { ...ok, name: 'Ada\tLovelace' },
      // Pasted numbers: no-break, narrow no-break and thin spaces, a no-break hyphen, an en dash.
      { ...ok, telephone: '020\u00A07946\u00A00000' },
      { ...ok, telephone: '+33\u202F1\u202F23\u202F45\u202F67\u202F89' },
      { ...ok, telephone: '020\u20097946\u20110000' },
      { ...ok, telephone: '020 \u2013 7946 0000' },
      // Arabic-Indic and fullwidth digits.
      { ...ok, telephone: '\u0660\u0662\u0660 \u0667\u0669\u0664\u0666 \u0660\u0660\u0660\u0660' },
      { ...ok, telephone: '\uFF10\uFF12\uFF10\uFF0D\uFF17\uFF19\uFF14\uFF16' },
      // Found by the twenty-seventh session: copied numbers with the invisible characters they carry (a zero-width
      // space, the text-direction embedding Windows wraps a copied number in, of which the 40 digits do not count)
      // and from a tel: link.
      { ...ok, telephone: '020\u200B7946\u200B0000' },
      { ...ok, telephone: `\u202A${'0'.repeat(40)}\u202C` },
      { ...ok, telephone: 'tel:+44-20-7946-0000' },
      // And copied addresses (since the twenty-eighth session): a zero-width space, a soft hyphen, Windows' marks.
      { ...ok, email: 'ada\u200B@example.com' },
      { ...ok, email: '\u202Aada@exam\u00ADple.com\u202C' },
    ]) {
      expect(invalidContactFields(contact), contact.name.slice(0, 20)).toEqual([]);
    }
  });
});
