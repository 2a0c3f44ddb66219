import fc from 'fast-check';

/** Property names that reach for an object's prototype, or shadow its methods. */
export const PROTO_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'hasOwnProperty',
  'toString',
  'valueOf',
];

/** Strings that break naive code: control characters, lone surrogates, bidi tricks, injections, paths. */
const NASTY_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\uD800',
  '\uDFFF\uD800',
  '\uFEFF',
  'A\u202Egnp.exe',
  '\u200B\u200C\u200D',
  'Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǫ̗͙̈́',
  '𝕏𝕐ℤ🏳️‍🌈👩‍👩‍👧‍👦',
  '\r\n\r\nSet-Cookie: x=1',
  "'; DROP TABLE users; --",
  '" OR 1=1 --',
  '%00',
  '%',
  '../../etc/passwd',
  '..\\..\\x.pdf',
  '/etc/passwd',
  'C:\\Windows\\win.ini',
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  'NaN',
  'Infinity',
  '-0',
  '1e309',
  'null',
  'true',
  '[]',
  '{}',
  ...PROTO_KEYS,
];

/** Short and huge strings in every Unicode shape, including lone surrogates. */
export const oddString: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: fc.constantFrom(...NASTY_STRINGS), weight: 4 },
  { arbitrary: fc.string({ unit: 'binary', maxLength: 200 }), weight: 3 },
  { arbitrary: fc.string({ unit: 'grapheme', maxLength: 60 }), weight: 2 },
  {
    arbitrary: fc
      .tuple(
        fc.constantFrom('x', 'é', '𝕏', '\u0000', '<', '\uD800'),
        fc.integer({ min: 200, max: 40_000 }),
      )
      .map(([c, n]) => c.repeat(n)),
    weight: 1,
  },
);

/** Object keys: real-looking, prototype-polluting, odd. */
export const oddKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(...PROTO_KEYS),
  fc.string({ maxLength: 20 }),
  oddString.map((s) => s.slice(0, 300)),
);

/** Any JSON value plus numbers at the edges of what JSON and JavaScript can hold. */
export const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: oddString, weight: 4 },
  {
    arbitrary: fc.constantFrom(
      0,
      -0,
      -1,
      1.5,
      1e308,
      -1e308,
      5e-324,
      Number.MAX_SAFE_INTEGER + 2,
      2 ** 53,
      -(2 ** 63),
      true,
      false,
      null,
      [],
      {},
      [null],
      { __proto__: null },
    ),
    weight: 3,
  },
  { arbitrary: fc.double({ noNaN: true, noDefaultInfinity: true }), weight: 2 },
  { arbitrary: fc.integer(), weight: 2 },
  { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 2 },
);

/** An object built with own `__proto__`-style keys kept as data (what JSON.parse produces). */
function objectFrom(entries: [string, unknown][]): Record<string, unknown> {
  return Object.fromEntries(entries);
}

/**
 * JSON bodies around a valid one: fields dropped, replaced with odd values, extra (prototype) keys, top-level
 * wrong types, raw `__proto__` JSON text, absurd nesting, malformed and truncated JSON.
 */
export function jsonBody(valid: Record<string, unknown>): fc.Arbitrary<string> {
  const keys = Object.keys(valid);
  const mutated = fc
    .record({
      drop: keys.length === 0 ? fc.constant([] as string[]) : fc.subarray(keys),
      replace: fc.array(fc.tuple(keys.length === 0 ? oddKey : fc.constantFrom(...keys), oddValue), {
        maxLength: 3,
      }),
      extra: fc.array(fc.tuple(oddKey, oddValue), { maxLength: 2 }),
    })
    .map(({ drop, replace, extra }) => {
      const entries = Object.entries(valid).filter(([k]) => !drop.includes(k));
      const object = objectFrom([...entries, ...replace, ...extra]);
      return JSON.stringify(object);
    });
  const validText = JSON.stringify(valid);
  const protoText = fc
    .tuple(fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 2 }))
    .map(([key, value]) => {
      const inner = JSON.stringify({ polluted: value, prototype: { polluted: true } });
      return validText.length > 2
        ? `{"${key}":${inner},${validText.slice(1)}`
        : `{"${key}":${inner}}`;
    });
  const wrongTop = fc
    .jsonValue({ maxDepth: 2 })
    .filter((v) => typeof v !== 'object' || Array.isArray(v) || v === null);
  return fc.oneof(
    { arbitrary: mutated, weight: 6 },
    { arbitrary: protoText, weight: 2 },
    { arbitrary: wrongTop.map((v) => JSON.stringify(v)), weight: 1 },
    {
      arbitrary: fc
        .integer({ min: 0, max: Math.max(0, validText.length - 1) })
        .map((n) => validText.slice(0, n)),
      weight: 1,
    },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 100 }), weight: 1 },
    // Nesting far deeper than any real body, under the body's own first field or at the top (a recursive
    // walk of the parsed body overflows the stack well within the 64 KB limit).
    {
      arbitrary: fc
        .tuple(fc.integer({ min: 30, max: 12_000 }), fc.boolean(), fc.boolean())
        .map(([depth, arrays, inField]) => {
          const [open, close] = arrays ? ['[', ']'] : ['{"a":', '}'];
          const deep = `${open.repeat(depth)}1${close.repeat(depth)}`;
          const field = keys[0];
          return inField && field !== undefined ? `{"${field}":${deep}}` : deep;
        }),
      weight: 1,
    },
    {
      arbitrary: fc.constantFrom(
        '{"a":1,}',
        "{'a':1}",
        '{"a":01}',
        '[1,2',
        '{"a":"\\ud800"}',
        '{"a":"\\u0000"}',
        '{"a":NaN}',
      ),
      weight: 1,
    },
  );
}

export const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'APPLICATION/JSON',
  'application/json; charset=latin1',
  'application/json; charset=utf-16',
  'application/vnd.api+json',
  'text/plain',
  'text/html',
  'application/xml',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=x',
  'application/octet-stream',
  'application/json, text/plain',
  'x/y; a="',
  '',
);

/** Percent-encodes what a URL cannot carry, keeping `%` sometimes raw (bad escapes are part of the test). */
export function urlPart(value: string, keepPercent: boolean): string {
  let out = '';
  for (const char of value) {
    if (/[A-Za-z0-9\-._~!$'()*+,;=:@[\]]/.test(char) || (keepPercent && char === '%')) {
      out += char;
      continue;
    }
    try {
      out += encodeURIComponent(char);
    } catch {
      out += '%ED%A0%80'; // a lone surrogate, as its (invalid) UTF-8 bytes
    }
  }
  return out;
}

/** Absurd query strings: odd keys (`__proto__[x]`), repeated keys, bad escapes, huge values. */
export function queryString(valid: string | undefined): fc.Arbitrary<string> {
  const pair = fc
    .tuple(
      fc.oneof(
        oddKey,
        fc.constantFrom(
          'search',
          'id',
          'type',
          'token',
          '__proto__[x]',
          'a[b][c]',
          'constructor[prototype][x]',
        ),
      ),
      oddString,
      fc.boolean(),
    )
    .map(([k, v, raw]) => `${urlPart(k.slice(0, 200), raw)}=${urlPart(v.slice(0, 3000), raw)}`);
  return fc.oneof(
    fc.constant(valid ?? ''),
    fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => pairs.join('&')),
    fc.tuple(fc.constant(valid ?? ''), pair).map(([v, p]) => (v === '' ? p : `${v}&${p}&${v}`)),
    fc.constantFrom(
      '%',
      '%E0%A4%A',
      '&&&',
      '=',
      '==&=',
      'search',
      'search[]=a&search[]=b',
      `x=${'%41'.repeat(4000)}`,
    ),
  );
}

/**
 * `.` and `..` segments are resolved by the injector before the app sees them (as by browsers), which would
 * turn the request into one for another route: they get a letter appended.
 */
export function noDotSegment(segment: string): string {
  return /^(\.|%2e){1,2}$/i.test(segment) ? `${segment}x` : segment;
}

/** Client prefixes: the real ones, unknown, odd and hostile. */
export const clientSegment = fc.oneof(
  { arbitrary: fc.constantFrom('demo', 'northbank'), weight: 6 },
  {
    arbitrary: fc.constantFrom(
      'DEMO',
      'demo ',
      'nope',
      '__proto__',
      'constructor',
      '...',
      '%2e%2e%2e',
      'demo%00',
      'x'.repeat(150),
      '%F0%9F%98%80',
    ),
    weight: 2,
  },
  { arbitrary: oddString.map((s) => noDotSegment(urlPart(s.slice(0, 200), false))), weight: 2 },
);

export const oddMethods = fc.constantFrom('PUT', 'PATCH', 'DELETE', 'OPTIONS') as fc.Arbitrary<
  'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS'
>;
