/** Every character outside ASCII (U+0080 and up, UTF-16 code unit by code unit). */
const NON_ASCII = /[\u0080-\uffff]/g;

const escape = (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * JSON.stringify with every non-ASCII character written as a `\uXXXX` escape (as Python's json.dumps does by
 * default): the same value once parsed, a few bytes longer, and pure ASCII, so clients decode it on their
 * fast path. Decoding UTF-8 that holds even a few non-ASCII characters makes JavaScript engines build a
 * two-byte string of the whole text; for the ~25 KB hub that was most of an HTTP client's time per answer.
 * Lone surrogates come out as escapes too, so the output is always well-formed.
 */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(NON_ASCII, escape);
}
