import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ESCAPED_LENGTH, asciiJson } from '../../src/services/ascii-json.js';

const isAscii = (text: string) => [...text].every((c) => c.charCodeAt(0) < 0x80);

describe('asciiJson', () => {
  it('should escape every character outside ASCII and leave the rest as JSON.stringify writes it', () => {
    expect(asciiJson({ price: '£1,234', dash: 'a – b', plain: 'abc "q" \\ /' })).toBe(
      '{"price":"\\u00a31,234","dash":"a \\u2013 b","plain":"abc \\"q\\" \\\\ /"}',
    );
    // A pair (an emoji) is written as its two UTF-16 halves; a lone half as JSON.stringify escapes it.
    expect(asciiJson('😀')).toBe('"\\ud83d\\ude00"');
    expect(asciiJson('\ud800x')).toBe('"\\ud800x"');
    expect(asciiJson([1, null, true])).toBe('[1,null,true]');
  });

  it('should give pure ASCII that parses back to what JSON.stringify gives, for any value', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const text = asciiJson(value);
        expect(isAscii(text)).toBe(true);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 500 },
    );
  });

  // Found by the twenty-third session's staff-tool probe: escaping some 67 million characters ended V8 with a
  // fatal error, which no code can catch.
  it('should send a text longer than MAX_ESCAPED_LENGTH as it is, in UTF-8', () => {
    expect(MAX_ESCAPED_LENGTH).toBe(8 * 1024 * 1024);
    const long = { summary: 'é'.repeat(8 * 1024 * 1024) };
    expect(asciiJson(long)).toBe(JSON.stringify(long));
    const short = { summary: 'é'.repeat(8 * 1024 * 1024 - 20) };
    expect(isAscii(asciiJson(short))).toBe(true);
    // Two strings of 8 million characters, escaped: 8 s on a busy machine, past 30 s on one loaded by other runs.
  }, 120_000);
});
