import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

/**
 * Content negotiation and compression of dynamic answers (the content answer, the portal's pages); the
 * portal's built files are compressed at build time instead.
 */

export type Encoding = 'br' | 'gzip';

/** Accept-Encoding values seen lately and the coding chosen for each (browsers send a handful of values). */
const chosen = new Map<string, Encoding | undefined>();
const MAX_CHOSEN = 100;
const MAX_CHOSEN_LENGTH = 200;

/**
 * The content coding to send for this Accept-Encoding (RFC 9110 §12.5.3): brotli or gzip when acceptable
 * (listed, or covered by `*`, with a weight above 0), the higher weight first and brotli on a tie;
 * `undefined` (identity) when neither is, or when the header is absent.
 */
export function preferredEncoding(header: string | undefined): Encoding | undefined {
  if (header === undefined || header === '') return undefined;
  if (chosen.has(header)) return chosen.get(header);
  const weights = new Map<string, number>();
  for (const element of header.split(',')) {
    const [coding = '', ...parameters] = element.split(';').map((part) => part.trim());
    if (coding === '') continue;
    let q = 1;
    for (const parameter of parameters) {
      if (!/^q\s*=/i.test(parameter)) continue;
      const match = /^q\s*=\s*(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i.exec(parameter);
      // A weight that is not well formed makes the coding unacceptable rather than fully acceptable.
      q = match?.[1] === undefined ? 0 : Number(match[1]);
    }
    const name = coding.toLowerCase() === 'x-gzip' ? 'gzip' : coding.toLowerCase();
    weights.set(name, Math.max(q, weights.get(name) ?? 0));
  }
  const weightOf = (coding: string) => weights.get(coding) ?? weights.get('*') ?? 0;
  const br = weightOf('br');
  const gzip = weightOf('gzip');
  const result = br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : undefined;
  if (header.length <= MAX_CHOSEN_LENGTH) {
    if (chosen.size >= MAX_CHOSEN) chosen.clear();
    chosen.set(header, result);
  }
  return result;
}

/**
 * Brotli quality 5 and gzip level 6: about a millisecond each for the ~25 KB hub, which matters because every
 * distinct search makes a new answer (quality 11 would take ~35 ms for 15% less).
 */
const QUICK = { brotliQuality: 5, gzipLevel: 6 };
/** The smallest output: for an answer that is sent again and again (re-made off the event loop). */
const SMALLEST = { brotliQuality: 11, gzipLevel: 9 };
type Setting = typeof QUICK;

const brotliOptions = (body: Buffer, setting: Setting) => ({
  params: {
    [constants.BROTLI_PARAM_QUALITY]: setting.brotliQuality,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});

export function compress(body: Buffer, encoding: Encoding): Buffer {
  return encoding === 'br'
    ? brotliCompressSync(body, brotliOptions(body, QUICK))
    : gzipSync(body, { level: QUICK.gzipLevel });
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/**
 * As `compress`, off the event loop (in libuv's thread pool): for bodies compressed once per request rather
 * than once per version. `smallest` spends ~35 ms of a pool thread on the ~25 KB hub for ~15% fewer bytes:
 * worth it only for an answer sent many times.
 */
export function compressAsync(
  body: Buffer,
  encoding: Encoding,
  { smallest = false }: { smallest?: boolean } = {},
): Promise<Buffer> {
  const setting = smallest ? SMALLEST : QUICK;
  return encoding === 'br'
    ? brotliAsync(body, brotliOptions(body, setting))
    : gzipAsync(body, { level: setting.gzipLevel });
}
