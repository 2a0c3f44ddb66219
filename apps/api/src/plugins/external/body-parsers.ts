import { parse as parseForm } from 'node:querystring';
import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { shownText } from '../../services/shown-text.js';
import { MAX_UPLOAD_BYTES } from '../../services/uploads.js';
import { HttpError } from '../../types.js';

export const NOT_UTF8_CHARSET_MESSAGE =
  'This content type is not accepted: send JSON as UTF-8 (charset=utf-8, or no charset).';
export const NOT_UTF8_MESSAGE = 'Invalid body: it is not valid UTF-8 text.';
export const FORM_NOT_UTF8_CHARSET_MESSAGE =
  'This content type is not accepted: send the form as UTF-8 (charset=utf-8, or no charset).';

/** The most bytes of a urlencoded body (the login link's form holds one token of at most 200 characters). */
const FORM_BODY_LIMIT = 4096;

/** Strict: a byte sequence that is not UTF-8 is an error, not a U+FFFD. A leading BOM is dropped. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Whether every `charset` parameter of a Content-Type (there need be none) names UTF-8, or US-ASCII, a part of it
 * (a text part of a due-diligence form may say `us-ascii` too; JSON saying so got a 415 until the thirtieth
 * session). Bytes past ASCII are read as UTF-8 either way, and refused when they are not.
 */
function declaresUtf8(contentType: string | undefined): boolean {
  return (contentType ?? '')
    .split(';')
    .slice(1)
    .map((parameter) => parameter.trim())
    .filter((parameter) => /^charset\s*=/i.test(parameter))
    .every((parameter) =>
      ['utf-8', 'utf8', 'us-ascii'].includes(
        parameter
          .slice(parameter.indexOf('=') + 1)
          .trim()
          .replace(/^"(.*)"$/, '$1')
          .toLowerCase(),
      ),
    );
}

/**
 * A body's text, read strictly as UTF-8 (a leading BOM dropped), or the error that refuses it: a 415 with
 * `charsetMessage` when its Content-Type names another charset, a 400 when its bytes are not UTF-8.
 */
function utf8Text(
  request: FastifyRequest,
  body: Buffer,
  charsetMessage: string,
): { text: string } | { error: HttpError } {
  if (!declaresUtf8(request.headers['content-type'])) {
    return { error: new HttpError(415, charsetMessage) };
  }
  try {
    return { text: utf8.decode(body) };
  } catch {
    return { error: new HttpError(400, NOT_UTF8_MESSAGE) };
  }
}

const SHORT_INTEGER = /^-?\d{1,15}$/;
const NUMBER_PARTS = /^-?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const LOWER_E = 0x65;
const ZERO = 0x30;
const NINE = 0x39;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
/** Sets the bit that makes an ASCII capital letter its lower-case form (`E` → `e`). */
const LOWER_CASE_BIT = 0x20;

/**
 * Where the string starting at `at` (its opening quote) in a well-formed JSON text ends: the index after its
 * closing quote.
 */
function stringEnd(text: string, at: number): number {
  let i = at + 1;
  // Bounded by the text's end all the same: a string left open ends there.
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) return i + 1;
    i += c === BACKSLASH ? 2 : 1;
  }
  return text.length;
}

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** Whether a JSON number's text is exactly the whole number `value`, digit for digit. */
function isExactly(token: string, value: number): boolean {
  const [, whole = '', fraction = '', exponent = '0'] = NUMBER_PARTS.exec(token) ?? [];
  const digits = `${whole}${fraction}`.replace(/^0+/, '');
  if (digits === '') return value === 0;
  // Not `/0+$/`: unanchored at its start, it rescans every run of zeros from each of its zeros (a 60 KB
  // `1.000…0001e20` took seconds of the event loop); the digits are counted back from the end instead.
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === ZERO) end -= 1;
  const significant = digits.slice(0, end);
  const scale = Number(exponent) - fraction.length + (digits.length - significant.length);
  // A fractional part is left, or the number is far past any a double holds exactly as an integer.
  if (scale < 0 || significant.length + scale > 400) return false;
  return `${significant}${'0'.repeat(scale)}` === BigInt(Math.abs(value)).toString();
}

/**
 * The first number in a JSON text that reads as a whole number it does not say: an integer past 2^53
 * (9007199254740993 reads as …992) or a fraction that rounds to one (999999.99999999999999 reads as
 * 1000000, 1e-400 as 0), or past the largest double (1e400 reads as Infinity). Such a number would be checked, priced and stored as another; other fractions
 * (0.1) are approximate in any JSON reader and left to the schema.
 *
 * One pass over the text, already known to be well-formed JSON, skipping its strings: every request body goes
 * through it, and an earlier version (a `matchAll` of strings and numbers) made an array of each token, a tenth
 * of what a calculator's POST allocated.
 */
export function inexactWholeNumber(text: string): { token: string; value: number } | undefined {
  const length = text.length;
  for (let i = 0; i < length;) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (c !== MINUS && !isDigit(c)) {
      i += 1;
      continue;
    }
    // A number: `-?\d+(\.\d+)?([eE][+-]?\d+)?`, as JSON writes them.
    const start = i;
    if (c === MINUS) i += 1;
    while (i < length && isDigit(text.charCodeAt(i))) i += 1;
    const integerEnd = i;
    if (text.charCodeAt(i) === DOT) {
      i += 1;
      while (i < length && isDigit(text.charCodeAt(i))) i += 1;
    }
    if ((text.charCodeAt(i) | LOWER_CASE_BIT) === LOWER_E) {
      i += 1;
      const sign = text.charCodeAt(i);
      if (sign === PLUS || sign === MINUS) i += 1;
      while (i < length && isDigit(text.charCodeAt(i))) i += 1;
    }
    // An integer of at most 15 digits is always exact: the common case costs no token at all.
    if (i === integerEnd && integerEnd - start - (c === MINUS ? 1 : 0) <= 15) continue;
    const token = text.slice(start, i);
    if (SHORT_INTEGER.test(token)) continue;
    const value = Number(token);
    // Past the largest double (`1e400`) a number reads as Infinity, which the schema refused as not a number
    // at all (twenty-ninth session's API probe): it is a number too large to be held.
    if (!Number.isFinite(value)) return { token, value };
    if (Number.isInteger(value) && !isExactly(token, value)) return { token, value };
  }
  return undefined;
}

/**
 * The first name given twice within one object of a well-formed JSON text (compared as decoded, so `"a"` and
 * `"\u0061"` are one name), or `undefined`. JSON.parse keeps the last; a proxy, a log or another reader in front
 * may have read the first, so such a body is refused rather than read one way here and another way there.
 *
 * One pass over the text, as {@link inexactWholeNumber}: a string is cut out only when it is a name.
 */
export function repeatedName(text: string): string | undefined {
  // The names seen in each open object; `null` for an open array.
  const open: (Set<string> | null)[] = [];
  // The last string's bounds, while nothing but spaces follows it (a name is followed by its colon).
  let lastStart = -1;
  let lastEnd = -1;
  const length = text.length;
  for (let i = 0; i < length;) {
    const c = text.charCodeAt(i);
    switch (c) {
      case QUOTE:
        lastStart = i;
        lastEnd = i = stringEnd(text, i);
        continue;
      case OPEN_BRACE:
        open.push(new Set());
        break;
      case OPEN_BRACKET:
        open.push(null);
        break;
      case CLOSE_BRACE:
      case CLOSE_BRACKET:
        open.pop();
        break;
      case COLON: {
        const names = open.at(-1);
        if (names !== null && names !== undefined && lastStart >= 0) {
          const quoted = text.slice(lastStart, lastEnd);
          const name = quoted.includes('\\') ? (JSON.parse(quoted) as string) : quoted.slice(1, -1);
          if (names.has(name)) return name;
          names.add(name);
        }
        break;
      }
      default:
        // Anything else (spaces, commas, numbers, true, false, null) leaves the last string as it was.
        i += 1;
        continue;
    }
    lastStart = -1;
    i += 1;
  }
  return undefined;
}

/**
 * urlencoded bodies (the login link's Continue form), streamed multipart (due diligence), and JSON read
 * strictly: as UTF-8 only (Fastify's own parser turned invalid bytes, or a Latin-1 body, into U+FFFD and
 * stored that), and with no number that would silently become another.
 */
export default fp(
  async (app) => {
    const parseJson = app.getDefaultJsonParser('error', 'error');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser(
      'application/json',
      { parseAs: 'buffer' },
      (
        request: FastifyRequest,
        body: Buffer,
        done: (error: Error | null, body?: unknown) => void,
      ) => {
        const read = utf8Text(request, body, NOT_UTF8_CHARSET_MESSAGE);
        if ('error' in read) {
          done(read.error);
          return;
        }
        const { text } = read;
        parseJson(request, text, (error, parsed) => {
          if (error !== null) {
            done(error);
            return;
          }
          const repeated = repeatedName(text);
          if (repeated !== undefined) {
            done(
              new HttpError(
                400,
                `Invalid body: the field "${shownText(repeated)}" is given twice.`,
              ),
            );
            return;
          }
          const inexact = inexactWholeNumber(text);
          if (inexact !== undefined) {
            // A long number is shown by its first and last digits: cut at 40 characters without a mark, 1 and 400
            // zeros was "the number 1000…0 (40 digits)", and 0.000…01 "the number 0.000…0 cannot be held exactly
            // (it would be read as 0)", as if 0 could not (found by the thirty-first session's JSON probe).
            const token =
              inexact.token.length > 40
                ? `${inexact.token.slice(0, 30)}…${inexact.token.slice(-10)}`
                : inexact.token;
            const readAs = String(inexact.value);
            done(
              new HttpError(
                400,
                // Past 1e21 a double is written with an exponent: "read as 1e+308" would say nothing.
                readAs.includes('e') || !Number.isFinite(inexact.value)
                  ? `Invalid body: the number ${token} is too large to be held exactly.`
                  : `Invalid body: the number ${token} cannot be held exactly (it would be read as ${readAs.slice(0, 40)}).`,
              ),
            );
            return;
          }
          done(null, parsed);
        });
      },
    );
    // A form is read as JSON is: as UTF-8 only, and a field given twice is named as such, as in a JSON body or a
    // query (found by the twentieth session's API probe: `token=a&token=b` was "must be string"). A form in UTF-16
    // (which no browser sends: HTML submits such a page's forms in UTF-8) was read as UTF-8 and told its `token`
    // was missing, though it was there (found by the twenty-seventh session); one in Latin-1 had its bytes past
    // ASCII turned into U+FFFD. Both are refused in their own words now, as a JSON body is.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'buffer', bodyLimit: FORM_BODY_LIMIT },
      (
        request: FastifyRequest,
        body: Buffer,
        done: (error: Error | null, body?: unknown) => void,
      ) => {
        const read = utf8Text(request, body, FORM_NOT_UTF8_CHARSET_MESSAGE);
        if ('error' in read) {
          done(read.error);
          return;
        }
        const fields = parseForm(read.text);
        const repeated = Object.keys(fields).find((name) => Array.isArray(fields[name]));
        if (repeated !== undefined) {
          done(
            new HttpError(400, `Invalid body: the field "${shownText(repeated)}" is given twice.`),
          );
          return;
        }
        done(null, fields);
      },
    );
    await app.register(multipart, {
      // We count the bytes ourselves to answer 413 and delete the partial file; busboy stops one byte
      // later and discards the rest of the file so the browser sees the 413, within the bounds the route
      // sets (MAX_BODY_BYTES, DRAIN_MS in routes/api/due-diligence.ts). The route answers the other limits
      // (a second file, too many fields or parts) with a 400 in its own words.
      throwFileSizeLimit: false,
      limits: {
        fileSize: MAX_UPLOAD_BYTES + 1,
        files: 1,
        fields: 20,
        fieldSize: 20_000,
        parts: 25,
        headerPairs: 100,
      },
    });
  },
  { name: 'body-parsers' },
);
