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
  const json = JSON.stringify(value);
  // Escaping a text of tens of millions of characters ends V8 with a fatal error no code can catch (found by the
  // twenty-third session's staff-tool probe: 135 insights of 1 MB summaries, before imports bounded them); a text
  // that long is sent as UTF-8, its only cost the client's slower decoding.
  return json.length > MAX_ESCAPED_LENGTH ? json : json.replace(NON_ASCII, escape);
}

/** The longest JSON text written in ASCII escapes (longer ones are sent as they are, in UTF-8). */
export const MAX_ESCAPED_LENGTH = 8 * 1024 * 1024;
