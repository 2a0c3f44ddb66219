import { createRequire } from 'node:module';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseHeaderParameters } from '../src/header-parameters.js';

/** The multipart parser's own reader of header parameters (busboy, as @fastify/multipart loads it). */
const busboyParseParams = createRequire(
  createRequire(import.meta.url).resolve('@fastify/multipart'),
)('@fastify/busboy/lib/utils/parseParams') as (header: string) => (string | [string, string])[];

describe('parseHeaderParameters', () => {
  it('reads what browsers and curl send', () => {
    expect(parseHeaderParameters('form-data; name="SingleLine"; filename="a b.pdf"')).toEqual({
      value: 'form-data',
      parameters: [
        { name: 'name', value: 'SingleLine', quoted: true, escaped: false },
        { name: 'filename', value: 'a b.pdf', quoted: true, escaped: false },
      ],
    });
    expect(
      parseHeaderParameters('Multipart/Form-Data; boundary=----WebKitFormBoundaryAbC123'),
    ).toEqual({
      value: 'multipart/form-data',
      parameters: [
        { name: 'boundary', value: '----WebKitFormBoundaryAbC123', quoted: false, escaped: false },
      ],
    });
    expect(parseHeaderParameters('form-data ;name = "x" ;')?.parameters).toEqual([
      { name: 'name', value: 'x', quoted: true, escaped: false },
    ]);
    // A control character inside quotes splits nothing: a file name holding one is read (and stored under a
    // generated name).
    expect(
      parseHeaderParameters('form-data; name="x"; filename="a\u0000b.pdf"')?.parameters[1],
    ).toEqual({
      name: 'filename',
      value: 'a\u0000b.pdf',
      quoted: true,
      escaped: false,
    });
    // A backslash is text, as browsers write file names (a `"` is sent as %22), and marked.
    expect(parseHeaderParameters('form-data; name="x"; filename="a\\"')?.parameters[1]).toEqual({
      name: 'filename',
      value: 'a\\',
      quoted: true,
      escaped: true,
    });
    expect(parseHeaderParameters('form-data; filename="a\\"b"')).toBeUndefined();
  });

  it.each([
    'form-data; na me="Email"',
    'form-data; n\tame="Email"',
    'form-data; name="a"x',
    'form-data; name="a',
    'form-data; name=',
    'form-data; name',
    'form-data; na*me="x"',
    'form-data; name*0="x"',
    'form-data; name=a b',
    'form data; name="a"',
    'form-data; name=a\u0000',
    '',
  ])('refuses %j, which readers read in different ways', (header) => {
    expect(parseHeaderParameters(header)).toBeUndefined();
  });

  it('reads the field name and file name of every disposition it accepts as the multipart parser does', () => {
    // Parameter lists near the grammar, then bent by a few characters that matter to one reader or the
    // other: whatever the strict reader accepts without escapes, RFC 2231 names or a parameter given twice,
    // busboy reads with the same field name and file name (which it decodes as UTF-8).
    const odd = fc.constantFrom('=', ';', '"', '\\', ' ', '\t', '*', "'", '%41', '/', ',');
    const space = fc.constantFrom('', '', '', ' ', ' ', '\t', '  ');
    const tokenText = fc.stringMatching(/^[a-zA-Z0-9!#$%&'*+.^_`|~-]{1,8}$/);
    // é as its UTF-8 bytes, one latin1 character each, as Node hands header bytes over.
    const quotedText = fc
      .array(fc.constantFrom('a', 'B', ' ', ';', '=', '\u00C3\u00A9', ',', '/', "'", '*'), {
        maxLength: 6,
      })
      .map((pieces) => `"${pieces.join('')}"`);
    const parameter = fc
      .tuple(
        fc.constantFrom('name', 'filename', 'boundary', 'Name', 'x'),
        space,
        space,
        fc.oneof(tokenText, quotedText),
        space,
      )
      .map(([name, before, after, value, end]) => `${name}${before}=${after}${value}${end}`);
    const header = fc
      .tuple(
        fc.array(fc.tuple(space, parameter), { minLength: 1, maxLength: 4 }),
        fc.array(fc.tuple(fc.nat(), odd), { maxLength: 2 }),
      )
      .map(([parameters, bends]) => {
        let text = `form-data${parameters.map(([before, p]) => `;${before}${p}`).join('')}`;
        for (const [at, character] of bends) {
          const cut = 10 + (at % (text.length - 9));
          text = text.slice(0, cut) + character + text.slice(cut);
        }
        return text;
      });
    let compared = 0;
    fc.assert(
      fc.property(header, (text) => {
        const strict = parseHeaderParameters(text);
        if (strict === undefined) return;
        if (strict.parameters.some((p) => p.escaped || p.name.endsWith('*'))) return;
        const names = strict.parameters.map((p) => p.name);
        if (new Set(names).size !== names.length) return; // refused by the part-header check
        compared += 1;
        // What the parser takes from a part's disposition: its field's name and its file name (each the last
        // given). Its fast path for `form-data; name="…"; filename="…"` reads nothing after the file name,
        // which holds no name then, since a name given twice is refused.
        const read = (entries: [string, string][], name: string) =>
          entries.filter(([key]) => key.toLowerCase() === name).at(-1)?.[1];
        const lenient = busboyParseParams(text)
          .slice(1)
          .filter((entry): entry is [string, string] => Array.isArray(entry));
        const strictEntries = strict.parameters.map((p): [string, string] => [
          p.name,
          Buffer.from(p.value, 'latin1').toString('utf8'),
        ]);
        for (const name of ['name', 'filename']) {
          expect(read(lenient, name), name).toBe(read(strictEntries, name));
        }
      }),
      { numRuns: 3000 },
    );
    // Most cases are compared, not skipped as refused.
    expect(compared).toBeGreaterThan(500);
  });
});
