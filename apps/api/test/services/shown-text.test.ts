import { describe, expect, it } from 'vitest';
import { MAX_SHOWN, shownText } from '../../src/services/shown-text.js';

describe('shownText', () => {
  it('should leave out control characters, separators and bidi controls, keeping right-to-left letters and emoji', () => {
    expect(shownText('a\u0000b\u001b[31mc\u007fd')).toBe('ab[31mcd');
    expect(shownText('x\u009b2Jy\u0085z')).toBe('x2Jyz');
    expect(shownText('Field\u2028\u2029name')).toBe('Fieldname');
    expect(shownText('evil\u202Etxt.exe\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u202a')).toBe(
      'eviltxt.exe',
    );
    expect(shownText('שם שדה מريم 👩‍👩‍👧')).toBe('שם שדה מريم 👩‍👩‍👧');
  });

  it('should cut long text to MAX_SHOWN code points', () => {
    expect(shownText('𝕏'.repeat(MAX_SHOWN + 5))).toBe(`${'𝕏'.repeat(MAX_SHOWN)}…`);
  });
});
