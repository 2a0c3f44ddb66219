import { describe, expect, it } from 'vitest';
import {
  normalisePhoneNumber,
  phoneNumberProblem,
  storedPhoneNumber,
} from '../../src/routes/schemas.js';

/**
 * The same cases as the portal's (apps/portal/src/lib/phone-number.test.ts): the two copies of the rule behave alike.
 */
const PHONE_NUMBERS: [string, 'not-a-phone-number' | 'extension' | undefined][] = [
  ['+44 (0)20 7946 0000', undefined],
  ['020-7946-0000', undefined],
  ['0207.946.0000', undefined],
  [' 020 7946 0000 ', undefined],
  ['020\u00A07946\u202F0000', undefined],
  ['020\u20097946\u20110000', undefined],
  ['020 \u2013 7946', undefined],
  // Arabic-Indic, Eastern Arabic-Indic and fullwidth digits; fullwidth + ( ) - . and the ideographic space.
  ['\u0660\u0662\u0660 \u0667\u0669\u0664\u0666 \u0660\u0660\u0660\u0660', undefined],
  ['\u06F0\u06F2\u06F0 \u06F7\u06F9\u06F4\u06F6', undefined],
  ['\uFF10\uFF12\uFF10\u3000\uFF17\uFF19\uFF14\uFF16\uFF0D\uFF10\uFF10\uFF10\uFF10', undefined],
  ['\uFF0B\uFF14\uFF14\uFF08\uFF10\uFF09\uFF12\uFF10\uFF0E\uFF17', undefined],
  ['020 7946 0000 x12', 'extension'],
  ['020 7946 0000x12', 'extension'],
  ['020 7946 0000 X 12', 'extension'],
  ['020 7946 0000 ext 12', 'extension'],
  ['020 7946 0000 ext. 12', 'extension'],
  ['020 7946 0000, Ext: 12', 'extension'],
  ['020 7946 0000 extn 12', 'extension'],
  ['020 7946 0000 extension 12', 'extension'],
  ['020 7946 0000 #12', 'extension'],
  ['\uFF10\uFF12\uFF10 \uFF17\uFF19\uFF14\uFF16 ext \uFF11\uFF12', 'extension'],
  ['call me', 'not-a-phone-number'],
  ['+', 'not-a-phone-number'],
  ['))))', 'not-a-phone-number'],
  ['ext 12', 'not-a-phone-number'],
  ['x12', 'not-a-phone-number'],
  ['020 7946 0000 ext', 'not-a-phone-number'],
  ['020 7946 0000 or 12', 'not-a-phone-number'],
  ['\u0661\u0662a', 'not-a-phone-number'],
  // Invisible format characters a copied number carries (a zero-width space, a word joiner, a soft hyphen, the
  // text-direction embedding Windows wraps a copied number in), and a tel: URI's scheme; RFC 3966's ;ext=.
  ['020\u200B7946\u200B0000', undefined],
  ['020\u20607946\u00AD0000', undefined],
  ['\u202A+44 20 7946 0000\u202C', undefined],
  ['\u200E020 7946 0000\u200F', undefined],
  ['tel:+44-20-7946-0000', undefined],
  [' TEL: 020 7946 0000', undefined],
  ['+44 20 7946 0000;ext=12', 'extension'],
  ['tel:+44-20-7946-0000;ext=12', 'extension'],
  ['tel:', 'not-a-phone-number'],
  ['\u200B', 'not-a-phone-number'],
  ['hotel:020 7946', 'not-a-phone-number'],
  ['tel:+44-20-7946-0000;phone-context=example.com', 'not-a-phone-number'],
];

describe('the rule read twice', () => {
  // The API reads a number it has already put as it is to be stored: a reading that left a second `tel:` (or
  // anything else) for the next would let that be stored.
  it('reads a number as it reads the number it makes of it', () => {
    for (const [value] of [...PHONE_NUMBERS, ['tel:tel: 020 7946', undefined] as const]) {
      const once = normalisePhoneNumber(value);
      expect(normalisePhoneNumber(once), JSON.stringify(value)).toBe(once);
      expect(phoneNumberProblem(once), JSON.stringify(value)).toBe(phoneNumberProblem(value));
      const stored = storedPhoneNumber(value);
      expect(storedPhoneNumber(stored), JSON.stringify(value)).toBe(stored);
      expect(phoneNumberProblem(stored), JSON.stringify(value)).toBe(phoneNumberProblem(value));
    }
  });
});

describe('phoneNumberProblem', () => {
  it('takes digits of any of the scripts it reads, and tells an extension from what is no number', () => {
    for (const [value, problem] of PHONE_NUMBERS) {
      expect(phoneNumberProblem(value), JSON.stringify(value)).toBe(problem);
    }
  });
});

describe('normalisePhoneNumber', () => {
  it('reads Arabic-Indic, Eastern Arabic-Indic and fullwidth digits as ASCII, and leaves the rest', () => {
    expect(
      normalisePhoneNumber('\u0660\u0661\u0662\u0663\u0664\u0665\u0666\u0667\u0668\u0669'),
    ).toBe('0123456789');
    expect(
      normalisePhoneNumber('\u06F0\u06F1\u06F2\u06F3\u06F4\u06F5\u06F6\u06F7\u06F8\u06F9'),
    ).toBe('0123456789');
    expect(
      normalisePhoneNumber('\uFF10\uFF11\uFF12\uFF13\uFF14\uFF15\uFF16\uFF17\uFF18\uFF19'),
    ).toBe('0123456789');
    expect(normalisePhoneNumber('\uFF0B\uFF08\uFF09\uFF0D\uFF0E\u3000')).toBe('+()-. ');
    expect(normalisePhoneNumber('020\u00A07946 call')).toBe('020\u00A07946 call');
  });
});

describe('the digits of every script (the API only, so far)', () => {
  it('reads Devanagari, Bengali, Thai and mathematical digits as ASCII, and takes such a number', () => {
    const digits = (zero: number) =>
      Array.from({ length: 10 }, (_, i) => String.fromCodePoint(zero + i)).join('');
    // Devanagari, Bengali, Thai, Tibetan; the mathematical bold and monospace digits (astral, five sets in a row).
    for (const zero of [0x0966, 0x09e6, 0x0e50, 0x0f20, 0x1d7ce, 0x1d7f6]) {
      expect(normalisePhoneNumber(digits(zero)), zero.toString(16)).toBe('0123456789');
    }
    expect(phoneNumberProblem('\u0966\u0968\u0966 \u096D\u096F\u096A\u096C')).toBeUndefined();
    expect(phoneNumberProblem('\u{1D7CE}\u{1D7D0}\u{1D7CE} \u{1D7D5}')).toBeUndefined();
    expect(phoneNumberProblem('\u09E6\u09E8\u09E6 ext \u09E7\u09E8')).toBe('extension');
    // Digit-like characters that are no decimal digits stay refused: superscripts, circled numbers.
    expect(phoneNumberProblem('\u00B2\u00B3\u00B9')).toBe('not-a-phone-number');
    expect(phoneNumberProblem('\u2460\u2461')).toBe('not-a-phone-number');
  });
});

describe('storedPhoneNumber', () => {
  it('stores ASCII digits, plain spaces and hyphens, with nothing around the number', () => {
    expect(storedPhoneNumber('\uFEFF 020\u00A07946\u202F0000 ')).toBe('020 7946 0000');
    expect(storedPhoneNumber('\uFF10\uFF12\uFF10\u20097946\u20110000\u3000')).toBe('020 7946-0000');
    expect(storedPhoneNumber('020 \u2013 7946')).toBe('020 - 7946');
    expect(storedPhoneNumber('+44 (0)20 7946 0000')).toBe('+44 (0)20 7946 0000');
  });

  it('stores no invisible format character and no tel: before the number', () => {
    expect(storedPhoneNumber('\u202A+44 20\u200B7946\u20600000\u202C')).toBe('+44 2079460000');
    expect(storedPhoneNumber(' tel:+44-20-7946-0000 ')).toBe('+44-20-7946-0000');
    expect(storedPhoneNumber('Tel: 020 7946 0000')).toBe('020 7946 0000');
  });
});
