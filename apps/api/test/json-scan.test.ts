import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { inexactWholeNumber, repeatedName } from '../src/plugins/external/body-parsers.js';

/**
 * The JSON body's two checks (a name given twice in one object; a number that would be read as another) walk
 * the text by hand, one character at a time. They are held here to the regular-expression versions they
 * replaced, on any well-formed JSON: the same answer, always.
 */
const JSON_TOKENS = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
const JSON_STRUCTURE = /"(?:[^"\\]|\\.)*"|[{}[\]:]/g;

/** The tokens of the earlier version: every number of the text, outside its strings. */
function numbersAsBefore(text: string): string[] {
  return [...text.matchAll(JSON_TOKENS)].map(([token]) => token).filter((t) => !t.startsWith('"'));
}

/** The earlier version of repeatedName, as it was. */
function repeatedNameAsBefore(text: string): string | undefined {
  const open: (Set<string> | null)[] = [];
  let lastString: string | undefined;
  for (const [token] of text.matchAll(JSON_STRUCTURE)) {
    switch (token) {
      case '{':
        open.push(new Set());
        break;
      case '[':
        open.push(null);
        break;
      case '}':
      case ']':
        open.pop();
        break;
      case ':': {
        const names = open.at(-1);
        if (names !== null && names !== undefined && lastString !== undefined) {
          const name = lastString.includes('\\')
            ? (JSON.parse(lastString) as string)
            : lastString.slice(1, -1);
          if (names.has(name)) return name;
          names.add(name);
        }
        break;
      }
      default:
        lastString = token;
        continue;
    }
    lastString = undefined;
  }
  return undefined;
}

/** Number texts of every shape JSON allows, many of them past what a double holds exactly. */
const anyNumberText = fc
  .tuple(
    fc.boolean(),
    fc.oneof(fc.constant('0'), fc.stringMatching(/^[1-9]\d{0,24}$/)),
    fc.option(fc.stringMatching(/^\d{1,22}$/), { nil: undefined }),
    fc.option(
      fc.tuple(
        fc.constantFrom('e', 'E'),
        fc.constantFrom('', '+', '-'),
        fc.integer({ min: 0, max: 420 }),
      ),
      {
        nil: undefined,
      },
    ),
  )
  .map(
    ([negative, whole, fraction, exponent]) =>
      `${negative ? '-' : ''}${whole}${fraction === undefined ? '' : `.${fraction}`}${
        exponent === undefined ? '' : `${exponent[0]}${exponent[1]}${exponent[2]}`
      }`,
  );

/** Those, and whole numbers of 15 to 17 digits around 2^53, where doubles stop holding every integer. */
const numberText = fc.oneof(
  anyNumberText,
  fc
    .tuple(fc.boolean(), fc.bigInt({ min: 10n ** 14n, max: 10n ** 17n }))
    .map(([negative, n]) => `${negative ? '-' : ''}${n}`),
);

/** Names that collide often, escaped or not (`"a"` and `"\u0061"` are one name). */
const nameText = fc.constantFrom(
  '"a"',
  '"b"',
  '"\\u0061"',
  '"a\\"b"',
  '"\\\\"',
  '"x:y"',
  '"{"',
  '"]"',
);

/** A JSON value written by hand: numbers of any shape, names that repeat, spaces anywhere JSON allows them. */
const jsonText: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    numberText,
    fc.constantFrom('true', 'false', 'null', '""', '"1e400"', '"9007199254740993"'),
    fc.string().map((text) => JSON.stringify(text)),
    fc
      .array(tie('value'), { maxLength: 5 })
      .chain((items) => fc.constantFrom(`[${items.join(',')}]`, `[ ${items.join(' , ')} ]`)),
    fc
      .array(fc.tuple(nameText, tie('value')), { maxLength: 5 })
      .chain((pairs) =>
        fc.constantFrom(
          `{${pairs.map(([name, value]) => `${name}:${value}`).join(',')}}`,
          `{\n  ${pairs.map(([name, value]) => `${name} : ${value}`).join(',\n  ')}\n}`,
        ),
      ),
  ),
})).value;

describe('the JSON body’s checks, walked by hand', () => {
  it('should find what the regular expressions found, on any well-formed JSON', () => {
    fc.assert(
      fc.property(fc.oneof(jsonText, fc.json()), (text) => {
        JSON.parse(text);
        expect(repeatedName(text)).toBe(repeatedNameAsBefore(text));
        // The earlier version answered its first number that is inexact alone (each number's judgement is
        // held to the digits it says below).
        const first = numbersAsBefore(text).find(
          (token) => inexactWholeNumber(`[${token}]`) !== undefined,
        );
        expect(inexactWholeNumber(text)).toEqual(
          first === undefined ? undefined : { token: first, value: Number(first) },
        );
      }),
      { numRuns: 2_000 },
    );
  });

  it('should read the numbers as the earlier version did, one by one', () => {
    fc.assert(
      fc.property(
        numberText,
        fc.constantFrom('[%]', '{"a":%}', '{"a":"1e400","b":%}', '[ %, 1 ]'),
        (token, shape) => {
          const text = shape.replace('%', token);
          expect(numbersAsBefore(text)).toContain(token);
          const found = inexactWholeNumber(text);
          const value = Number(token);
          const inexact =
            !/^-?\d{1,15}$/.test(token) &&
            (!Number.isFinite(value) ||
              (Number.isInteger(value) && BigInt(Math.abs(value)).toString() !== digitsOf(token)));
          expect(found).toEqual(inexact ? { token, value } : undefined);
        },
      ),
      { numRuns: 5_000 },
    );
  });

  it('should end at the text’s end whatever it is given', () => {
    expect(repeatedName('{"a":1,"a')).toBe(undefined);
    expect(inexactWholeNumber('["12345678901234567890')).toBe(undefined);
    expect(inexactWholeNumber('[12345678901234567890')).toEqual({
      token: '12345678901234567890',
      value: 12345678901234567000,
    });
  });
});

/** The whole number a number text says, as digits (or '' when it says a fraction). */
function digitsOf(token: string): string {
  const [, whole = '', fraction = '', exponent = '0'] =
    /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(token) ?? [];
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return '0';
  const significant = digits.replace(/0+$/, '');
  const scale = Number(exponent) - fraction.length + (digits.length - significant.length);
  if (scale < 0) return '';
  return `${significant}${'0'.repeat(scale)}`;
}
