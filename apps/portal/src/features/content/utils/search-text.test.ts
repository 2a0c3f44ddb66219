import { describe, expect, it } from 'vitest';

import { MAX_SEARCH_LENGTH, searchText } from './search-text';

describe('searchText', () => {
  it('should trim the query and read a missing one as empty', () => {
    expect(searchText('  damp proofing  ')).toBe('damp proofing');
    expect(searchText(null)).toBe('');
    expect(searchText('   ')).toBe('');
  });

  it('should keep at most 200 characters, counted as the API counts them (code points)', () => {
    expect(MAX_SEARCH_LENGTH).toBe(200);
    expect(searchText('a'.repeat(3000))).toBe('a'.repeat(200));
    // 300 emoji are 600 UTF-16 units: 200 of them are kept whole, never half of one.
    const emoji = searchText('\u{1F4A9}'.repeat(300));
    expect(Array.from(emoji)).toHaveLength(200);
    expect(emoji).toBe('\u{1F4A9}'.repeat(200));
    // Cut inside a run of spaces: no trailing space is searched for.
    expect(searchText(`${'a'.repeat(199)}    b`)).toBe('a'.repeat(199));
  });

  it('should drop NUL characters, which the API refuses (an address with %00)', () => {
    expect(searchText('damp\u0000 proofing')).toBe('damp proofing');
    expect(searchText('\u0000\u0000')).toBe('');
  });

  it('should drop invisible text-direction marks, which show nothing and would match nothing', () => {
    expect(searchText('\u200Fwarranty')).toBe('warranty');
    expect(searchText('\u202Ewarranty\u2066')).toBe('warranty');
    // Right-to-left letters and emoji joiners are text.
    expect(searchText('שלום \u{1F469}\u200D\u{1F4BB}')).toBe('שלום \u{1F469}\u200D\u{1F4BB}');
  });
});

// Found by the fifteenth session's portal probe: a search of a zero-width space alone was run, and one holding
// U+0001 showed as "ab" but searched for the hidden character; both then had their activity record refused by
// the API (a console error, the search not recorded).
describe('searchText with characters that show nothing', () => {
  it.each(['\u200B', ' \u200B\u2060 ', '\u3164', '\u0301', '\u0001\u0002'])(
    'should read %j as no search at all',
    (query) => {
      expect(searchText(query)).toBe('');
    },
  );

  // Found by the twenty-eighth session's portal probe: a word pasted with a zero-width space or a soft hyphen in it
  // showed as the word and found nothing.
  it('should drop invisible word breaks from inside and around words, keeping joiners', () => {
    expect(searchText('\u200Bwarranty\u200B')).toBe('warranty');
    expect(searchText('war\u00ADranty')).toBe('warranty');
    expect(searchText('\uFEFFbuilding\u2060 warranty')).toBe('building warranty');
    expect(searchText('\u{1F469}\u200D\u{1F469}\u200D\u{1F467}')).toBe(
      '\u{1F469}\u200D\u{1F469}\u200D\u{1F467}',
    );
    expect(searchText('می\u200Cخواهم')).toBe('می\u200Cخواهم');
  });

  it('should drop control characters and read tabs and line breaks as spaces', () => {
    expect(searchText('a\u0001b')).toBe('ab');
    expect(searchText('damp\u001b[31m proofing')).toBe('damp[31m proofing');
    expect(searchText('damp\tproofing\r\nbasements')).toBe('damp proofing  basements');
  });
});
