/**
 * A strict reader of a header value with parameters (`form-data; name="x"`, `multipart/form-data; boundary=y`), as
 * RFC 9110 §5.6.6 writes them: the value, then `;`-separated `token=token` or `token="quoted string"` parameters,
 * with optional spaces and tabs around the separators only.
 *
 * The multipart parser (busboy) reads such headers leniently: it drops spaces and tabs anywhere outside quotes
 * (`b oundary=` is its `boundary=`, `na me=` its `name=`), reads `*` inside a name as the start of an RFC 2231
 * value, keeps backslashes of a quoted string, and skips whatever follows a closing quote. A check that reads the
 * header differently could be steered round (a part with no file stored without it; a field a filter in front
 * read as the full name stored as the e-mail), so whatever this reader cannot read exactly is refused by the
 * caller, and what it can read, the parser reads the same way.
 */

/** One parameter: its name in lower case, and its value (a quoted string's without the quotes). */
export interface HeaderParameter {
  name: string;
  value: string;
  /** Whether the value was a quoted string. */
  quoted: boolean;
  /** Whether a quoted value held a backslash, which readers take as text or as an escape. */
  escaped: boolean;
}

export interface HeaderWithParameters {
  /** The value before the parameters, in lower case (`form-data`, `multipart/form-data`). */
  value: string;
  parameters: HeaderParameter[];
}

const TOKEN_CHARACTER = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const WHITESPACE = /[ \t]/;
/**
 * A character inside a quoted string: anything but `"` and a line break. A backslash is text, as browsers write
 * multipart/form-data (they send a file name's `"` as `%22` and leave its backslashes as they are: a file named
 * `a\` on Linux is `filename="a\"`), though RFC 9110 reads it as an escape; a value holding one is marked, and a
 * field's name holding one is refused (the parser undoes some of them). Control characters change nothing in how
 * the header splits (the parser reads them as text; a file name holding a NUL is stored under a generated name).
 */
const QUOTED_TEXT = /[^"\r\n]/;
/** A media type (`type/subtype`) or a disposition type (`form-data`). */
const HEAD_VALUE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+(?:\/[!#$%&'*+\-.^_`|~0-9A-Za-z]+)?$/;

/**
 * Reads `header` (as a latin1 string, one byte a character), or `undefined` when it is not exactly a value and
 * parameters as above: a space or other non-token character inside a name or an unquoted value, a `*` other than
 * at a name's end (RFC 2231 continuations), text after a closing quote, an unterminated quote, a control character
 * outside quotes.
 *
 * @example parseHeaderParameters('form-data; name="a"') // { value: 'form-data', parameters: [{ name: 'name', value: 'a', … }] }
 * @example parseHeaderParameters('form-data; na me="a"') // undefined
 */
export function parseHeaderParameters(header: string): HeaderWithParameters | undefined {
  let at = 0;
  const skipWhitespace = () => {
    while (at < header.length && WHITESPACE.test(header.charAt(at))) at += 1;
  };
  const readToken = () => {
    const start = at;
    while (at < header.length && TOKEN_CHARACTER.test(header.charAt(at))) at += 1;
    return header.slice(start, at);
  };

  skipWhitespace();
  const start = at;
  while (at < header.length && header.charAt(at) !== ';') at += 1;
  const value = header.slice(start, at).replace(/[ \t]+$/, '');
  if (!HEAD_VALUE.test(value)) return undefined;

  const parameters: HeaderParameter[] = [];
  while (at < header.length) {
    // At a `;`.
    at += 1;
    skipWhitespace();
    if (at === header.length) break; // a trailing `;`
    if (header.charAt(at) === ';') continue; // an empty parameter (`;;`), which RFC 9110 allows
    const name = readToken();
    if (name === '' || name.slice(0, -1).includes('*')) return undefined;
    skipWhitespace();
    if (header.charAt(at) !== '=') return undefined;
    at += 1;
    skipWhitespace();
    let parameterValue = '';
    let quoted = false;
    let escaped = false;
    if (header.charAt(at) === '"') {
      quoted = true;
      at += 1;
      for (;;) {
        if (at >= header.length) return undefined; // never closed
        const character = header.charAt(at);
        if (character === '"') {
          at += 1;
          break;
        }
        if (QUOTED_TEXT.test(character)) {
          if (character === '\\') escaped = true;
          parameterValue += character;
          at += 1;
        } else {
          return undefined;
        }
      }
    } else {
      parameterValue = readToken();
      if (parameterValue === '') return undefined;
    }
    skipWhitespace();
    if (at < header.length && header.charAt(at) !== ';') return undefined;
    parameters.push({ name: name.toLowerCase(), value: parameterValue, quoted, escaped });
  }
  return { value: value.toLowerCase(), parameters };
}

/** The parameter's name without the `*` of an RFC 2231 value: `name` and `name*` name the same thing. */
export function baseNameOf(parameter: HeaderParameter): string {
  return parameter.name.endsWith('*') ? parameter.name.slice(0, -1) : parameter.name;
}
