import { describe, expect, it } from 'vitest';
import { isBlank } from './text';

describe('isBlank', () => {
  it.each([
    '',
    ' ',
    '\t\n',
    '\u00A0',
    '\u0085',
    '\u200B',
    ' \u200C\u200D\u2060 ',
    '\u00AD',
    '\u180E',
    '\u3000',
    // As the API counts them (found by the fifteenth session's probe): invisible operators, the combining grapheme
    // joiner, Hangul fillers, a Khmer inherent vowel, the Braille blank, variation selectors, a tag character and
    // a lone combining mark.
    '\u2062\u2063',
    '\u034F',
    '\u115F\u1160',
    '\u3164',
    '\uFFA0',
    '\u17B4',
    '\u2800',
    '\uFE0F',
    '\u{E0041}',
    '\u{E0100}',
    '\u0301',
    // Format characters beyond that list (found by the sixteenth session's probe): a musical symbol's
    // format control, a shorthand format control, an Egyptian hieroglyph format control.
    '\u{1D173}',
    '\u{1BCA0}',
    '\u{13430}',
  ])('counts %j as blank', (value) => {
    expect(isBlank(value)).toBe(true);
  });

  it.each([
    'a',
    ' a ',
    '\u200Ba',
    '0',
    '£',
    'é',
    'e\u0301',
    '🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}',
  ])('counts %j as filled in', (value) => {
    expect(isBlank(value)).toBe(false);
  });
});
