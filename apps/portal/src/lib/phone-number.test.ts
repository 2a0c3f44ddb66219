import { describe, expect, it } from 'vitest';

import {
  isPhoneNumber,
  normalisePhoneNumber,
  PHONE_EXTENSION_MESSAGE,
  PHONE_NUMBER_MESSAGE,
  phoneNumberMessage,
  phoneNumberProblem,
} from './phone-number';

/**
 * The same cases as the API's (apps/api/test/routes/phone-number.test.ts): the two copies of the rule behave alike.
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
  // Devanagari, Bengali, Thai and mathematical bold digits: every script's (as the API reads them).
  ['\u0966\u0968\u0966 \u096D\u096F\u096A\u096C', undefined],
  ['\u09E6\u09E8\u09E6 \u09ED\u09EF\u09EA\u09EC', undefined],
  ['\u0E50\u0E52\u0E50 \u0E57\u0E59\u0E54\u0E56', undefined],
  ['\u{1D7CE}\u{1D7D0}\u{1D7CE} \u{1D7D5}\u{1D7D7}\u{1D7D2}\u{1D7D4}', undefined],
  // Superscripts and circled numbers are no decimal digits.
  ['\u00B2\u00B3', 'not-a-phone-number'],
  ['\u2460\u2461', 'not-a-phone-number'],
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
    }
  });
});

describe('phoneNumberProblem', () => {
  it('takes digits of any of the scripts it reads, and tells an extension from what is no number', () => {
    for (const [value, problem] of PHONE_NUMBERS) {
      expect(phoneNumberProblem(value), JSON.stringify(value)).toBe(problem);
      expect(isPhoneNumber(value), JSON.stringify(value)).toBe(problem === undefined);
    }
  });
});

describe('normalisePhoneNumber', () => {
  it('reads the decimal digits of every script as ASCII, and leaves the rest', () => {
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
    // Every script's ten digits, the mathematical ones (five sets in a row) included.
    for (const zero of [0x0966, 0x09e6, 0x0e50, 0x1d7ce, 0x1d7d8, 0x1d7f6]) {
      const digits = Array.from({ length: 10 }, (_, n) => String.fromCodePoint(zero + n)).join('');
      expect(normalisePhoneNumber(digits), zero.toString(16)).toBe('0123456789');
    }
    expect(normalisePhoneNumber('020\u00A07946 call')).toBe('020\u00A07946 call');
  });
});

describe('phoneNumberMessage', () => {
  it('asks for the number without its extension, or in digits', () => {
    expect(phoneNumberMessage('extension')).toBe(PHONE_EXTENSION_MESSAGE);
    expect(PHONE_EXTENSION_MESSAGE).toMatch(/^Leave out the extension/);
    expect(phoneNumberMessage('not-a-phone-number')).toBe(PHONE_NUMBER_MESSAGE);
  });
});
