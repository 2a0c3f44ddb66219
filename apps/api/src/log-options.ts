import { constants, fstatSync, openSync, writeSync } from 'node:fs';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { TOKEN_SHAPE } from './crypto.js';

/** The query parameter whose value is a secret: a login link's token works for 15 minutes for whoever holds it. */
const SECRET_PARAMETER = 'token';

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/**
 * A request target as the log shows it: the value of every secret query parameter replaced by `[redacted]`
 * (whatever the case or percent-encoding of its name), everything else as sent. Anyone who can read the logs must
 * not be able to log in with a link someone else has not used yet.
 *
 * A link a mail program or a person damaged is still the token of a link nobody has used: it is hidden too. The
 * parameters are read as split by `&` or `;` (an `&amp;` an HTML mail left, `a=1;token=…`); a name that only holds
 * `token` (`token%00`, `token `, `xtoken`) or swallowed the `=` (`token%3D…`) hides what follows it, and so does
 * `token=` anywhere else (a path whose `?` was escaped, a link wrapped in another's parameter). Those reached the
 * log whole, where the server itself answered "invalid link" or 404 and the token stayed usable (found by the
 * thirty-first session's login-link probe). So does anything else shaped as a token ({@link withoutTokens}).
 */
export function loggedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return withoutTokens(withoutInlineToken(url));
  const query = url
    .slice(start + 1)
    .split(/([&;])/)
    .map((part, i) => {
      // The separators themselves, kept as sent.
      if (i % 2 === 1) return part;
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      const decoded = decodedName(name);
      if (!decoded.includes(SECRET_PARAMETER)) return part;
      // The name decodes to more than the parameter's name and an `=`: the value may be inside the name itself.
      return decoded.includes('=') ? '[redacted]' : `${name}=[redacted]`;
    })
    .join('');
  return withoutTokens(withoutInlineToken(`${url.slice(0, start + 1)}${query}`));
}

/** What a token may be written in: a run of letters, digits, `-`, `_` and `%`, at least a token long. */
const LONG_RUN = /[A-Za-z0-9_%-]{43,}/g;
/**
 * In such a run, the characters a token is written with, each as itself or percent-escaped (escaped again any
 * number of times: `%2541`); or else one escape of another character (`%3D`, `%253D`), or a lone `%`, which ends
 * them. An escape is always taken whole, so the `3D` of `%3D` is never read as the start of a token.
 */
const TOKEN_CHARACTERS =
  /((?:[A-Za-z0-9_-]+|%(?:25)*(?:2[Dd]|3\d|4[1-9A-Fa-f]|5[\dAa]|5[Ff]|6[1-9A-Fa-f]|7[\dAa]))+)|%(?:25)*[0-9A-Fa-f]{2}|%/g;
const ESCAPE = /%(?:25)*([0-9A-Fa-f]{2})/g;

/**
 * `target` with every value, or part of one, that holds the shape of a login token ({@link TOKEN_SHAPE}) replaced by
 * `[redacted]`, under whatever name and wherever it stands: a link's token repeated as another parameter's value
 * (`&utm_content=…`, a mail program's tracking) or inside a link wrapped in another's parameter, escaped once or
 * more (`%3Fk%3D…`, `%253D…`), reached the log whole (found by the thirty-first session's login-link probe). A
 * run of characters between two that are not base64url (`=`, `&`, `.`, an escaped `/`…), each written as itself or
 * escaped, is hidden whole when any 43 of them in a row are shaped as `randomToken()` makes them: a token glued to
 * more base64url characters (`ref-<token>`, `<token>xyz`, a tracker's prefix) was logged whole (noted by the
 * thirty-second session), and a run of more may hide one anywhere in it. Shorter runs (UUIDs, content ids) are left
 * as sent, and so are runs with no such stretch: one with no capital or no small letter in it (a content id such as
 * `environmental-contaminated-land-requirement`, a hex hash; a token lacks one only once in some two and a half
 * billion), or none ending in a character a 32-byte token can end with. A longer value of mixed case (a base64
 * hash, a signed id) is hidden too, most of the time: the log errs on the side of hiding.
 */
function withoutTokens(target: string): string {
  return target.replace(LONG_RUN, (run) =>
    // Without an escape, the run is one value's characters (the common case, read at once).
    !run.includes('%')
      ? hiddenIfToken(run, run)
      : run.replace(TOKEN_CHARACTERS, (written, characters: string | undefined) =>
          characters === undefined || characters.length < 43
            ? written
            : hiddenIfToken(
                written,
                characters.replace(ESCAPE, (_escape, hex: string) =>
                  String.fromCharCode(Number.parseInt(hex, 16)),
                ),
              ),
        ),
  );
}

/** The characters a token may end with: those {@link TOKEN_SHAPE} takes last (16 of base64url's 64). */
const TOKEN_ENDS = new Set(
  [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'].filter((last) =>
    TOKEN_SHAPE.test(`${'A'.repeat(42)}${last}`),
  ),
);

/**
 * `[redacted]` when `read` (what `written` says, unescaped: base64url characters only) holds 43 characters in a row
 * with a token's shape and both a capital and a small letter, else `written` as it is. One pass: at each character a
 * token may end with, whether the 43 ending there hold a letter of each case.
 */
function hiddenIfToken(written: string, read: string): string {
  let capital = -1;
  let small = -1;
  for (let end = 0; end < read.length; end += 1) {
    const code = read.charCodeAt(end);
    if (code >= 65 && code <= 90) capital = end;
    else if (code >= 97 && code <= 122) small = end;
    const start = end - 42;
    if (
      start >= 0 &&
      capital >= start &&
      small >= start &&
      TOKEN_ENDS.has(read.charAt(end)) &&
      TOKEN_SHAPE.test(read.slice(start, end + 1))
    ) {
      return '[redacted]';
    }
  }
  return written;
}

/**
 * A link whose `?` a mail program escaped (`/login/link%3Ftoken=…`, a 404) carries the token in the path, and one
 * wrapped in another's parameter (`?next=%2Fapi%2F…%3Ftoken%3D…`) in a value: `token=` or `token%3D` anywhere hides
 * what follows it, up to the next `/`, `?`, `&`, `;` or `#`.
 */
function withoutInlineToken(target: string): string {
  return target.replace(/(token(?:=|%3d))[^/?&;#]*/gi, '$1[redacted]');
}

/** How long a line waits, at most, for a full pipe (a slow log reader) before it is dropped. */
const FULL_PIPE_WAIT_MS = 1_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * A descriptor for writing to `fd` that never blocks: a pipe or FIFO (a shell's `| cat`, a supervisor's log pipe)
 * is opened again through /proc with O_NONBLOCK, so that a full pipe is an EAGAIN {@link stdoutDestination} waits
 * on for a bounded time. Left blocking, a stalled reader held a write for good, and with it every request and
 * SIGTERM (found by the twentieth session's fault probe). A file, a terminal or a socket (a systemd journal
 * stream) is written as it is.
 */
export function nonBlockingWhenPipe(fd = 1): number {
  try {
    // As bigints: Node 20's plain fstat of a pipe left the module loader unable to resolve any package loaded
    // after it (`Cannot find module 'avvio'`), which the server's own start then was.
    if (!fstatSync(fd, { bigint: true }).isFIFO()) return fd;
    return openSync(`/proc/self/fd/${fd}`, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    return fd;
  }
}

/**
 * Where the server's log goes: standard output, a line at a time, written whole before the call returns. A line
 * that cannot be written (a full disk under a redirected log, a reader that went away) is dropped, said once on
 * standard error until a line gets through again, and the server goes on. With pino's own destination a full disk
 * at start-up left the server hung for good, never listening and deaf to SIGTERM (found by the eighteenth
 * session's fault probe): its flush on exit retries any failed write for ever.
 */
export function stdoutDestination(fd = 1, errorFd = 2): { write: (line: string) => void } {
  let failing = false;
  // A line only partly written (the disk filled in the middle of it): the next line written starts on a line of its
  // own, so that it stays whole JSON rather than glued to the fragment (found by the nineteenth session's fault
  // probe). The fragment itself is left, ended by that line break.
  let torn = false;
  return {
    write(line: string) {
      const bytes = Buffer.from(torn ? `\n${line}` : line, 'utf8');
      let offset = 0;
      // Once a line has been dropped, the next ones are not waited for until one gets through: a reader that
      // has stopped would otherwise cost every line (every request) its second.
      const deadline = Date.now() + (failing ? 0 : FULL_PIPE_WAIT_MS);
      while (offset < bytes.length) {
        try {
          offset += writeSync(fd, bytes, offset);
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN' && Date.now() < deadline) {
            Atomics.wait(pause, 0, 0, 1);
            continue;
          }
          if (offset > 0) torn = true;
          if (!failing) {
            failing = true;
            try {
              writeSync(
                errorFd,
                `The log cannot be written to standard output (${code ?? 'error'}): its lines are dropped ` +
                  'until it can be. The server goes on.\n',
              );
            } catch {
              // Nowhere left to say it.
            }
          }
          return;
        }
      }
      failing = false;
      torn = false;
    },
  };
}

/** The server's logger: Fastify’s own request fields (as its default serializer, without accept-version), the URL through {@link loggedUrl}. */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream | { write: (line: string) => void },
): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream === undefined ? {} : { stream }),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
