import { open } from 'node:fs/promises';
import path from 'node:path';
import { startsWith } from './file-type.js';

/** An image's own width and height, in its pixels (or an SVG's user units). */
export interface ImageSize {
  width: number;
  height: number;
}

/** How much of an image is read for its size: enough for a JPEG's metadata before its frame header, and an SVG's root. */
const HEAD_BYTES = 64 * 1024;

const positive = (width: number, height: number): ImageSize | undefined =>
  Number.isFinite(width) && Number.isFinite(height) && width > 0 && height > 0
    ? { width, height }
    : undefined;

/**
 * The size an image says it has, from its first bytes: PNG, GIF, JPEG, WebP (lossy, lossless and extended) or SVG
 * (its root's `width` and `height`, else its `viewBox`). `undefined` when the bytes tell none.
 */
export function imageSize(head: Buffer): ImageSize | undefined {
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
    return head.length >= 24 ? positive(head.readUInt32BE(16), head.readUInt32BE(20)) : undefined;
  }
  if (startsWith(head, 'GIF87a') || startsWith(head, 'GIF89a')) {
    return head.length >= 10 ? positive(head.readUInt16LE(6), head.readUInt16LE(8)) : undefined;
  }
  if (startsWith(head, [0xff, 0xd8])) return jpegSize(head);
  if (startsWith(head, 'RIFF') && startsWith(head, 'WEBP', 8)) return webpSize(head);
  return svgSize(head.toString('utf8'));
}

/** A JPEG's size, from its first frame header (SOF0–SOF15 but DHT, JPG and DAC). */
function jpegSize(head: Buffer): ImageSize | undefined {
  let at = 2;
  while (at + 9 <= head.length) {
    if (head[at] !== 0xff) return undefined;
    const marker = head[at + 1]!;
    // Fill bytes, and the markers without a length.
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return positive(head.readUInt16BE(at + 7), head.readUInt16BE(at + 5));
    }
    if (marker === 0xda || marker === 0xd9) return undefined;
    at += 2 + head.readUInt16BE(at + 2);
  }
  return undefined;
}

/** A WebP's size, from its first chunk. */
function webpSize(head: Buffer): ImageSize | undefined {
  if (head.length < 30) return undefined;
  if (startsWith(head, 'VP8 ', 12)) {
    return positive(head.readUInt16LE(26) & 0x3fff, head.readUInt16LE(28) & 0x3fff);
  }
  if (startsWith(head, 'VP8L', 12)) {
    const bits = head.readUInt32LE(21);
    return positive((bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (startsWith(head, 'VP8X', 12)) {
    return positive(head.readUIntLE(24, 3) + 1, head.readUIntLE(27, 3) + 1);
  }
  return undefined;
}

/**
 * A length of an SVG's root: a number, in pixels or with no unit (a percentage or an em says nothing here). Read
 * without a pattern that backtracks: `^\s*(\d+(?:\.\d+)?)\s*(?:px)?\s*$` took time growing with the square of a run
 * of spaces or digits, 4 s for 50,000 spaces in a logo's `width`, on the request that first asked for the client
 * (found by the thirty-first session's portal probe, in the amount fields' like pattern).
 */
function svgLength(value: string | undefined): number {
  if (value === undefined) return Number.NaN;
  let number = value.trim();
  if (number.endsWith('px')) number = number.slice(0, -2).trimEnd();
  return /^\d+(?:\.\d+)?$/.test(number) ? Number(number) : Number.NaN;
}

function svgSize(text: string): ImageSize | undefined {
  // The first `<svg` and what follows it up to its `>`, found in one pass: `/<svg\b([^>]*)>/` tried every `<svg` of a
  // head holding no `>` to its end (0.9 s for 64 KB of them).
  const start = /<svg\b/i.exec(text);
  if (start === null) return undefined;
  const end = text.indexOf('>', start.index);
  if (end === -1) return undefined;
  const root = text.slice(start.index + 4, end);
  const attribute = (name: string) =>
    new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`, 'i')
      .exec(root)
      ?.slice(1)
      .find((v) => v !== undefined);
  const sized = positive(svgLength(attribute('width')), svgLength(attribute('height')));
  if (sized !== undefined) return sized;
  const box = attribute('viewBox')
    ?.trim()
    .split(/[\s,]+/)
    .map(Number);
  return box?.length === 4 ? positive(box[2]!, box[3]!) : undefined;
}

/**
 * The size of a client's logo (`/media/{prefix}/{file}`) in DATA_DIR/media, remembered by its address: a logo's
 * file is named by its content, so the size of an address never changes. `null` when the file cannot be read or
 * tells no size.
 */
export class LogoSizes {
  readonly #known = new Map<string, ImageSize | null>();

  constructor(private readonly mediaDir: string) {}

  async of(prefix: string, logoUrl: string | null): Promise<ImageSize | null> {
    if (logoUrl === null) return null;
    const known = this.#known.get(logoUrl);
    if (known !== undefined) return known;
    const own = `/media/${prefix}/`;
    const file = logoUrl.startsWith(own) ? logoUrl.slice(own.length) : '';
    if (!/^[\w.-]+$/.test(file) || file.startsWith('.')) return null;
    let size: ImageSize | null;
    try {
      const handle = await open(path.join(this.mediaDir, prefix, file), 'r');
      try {
        const head = Buffer.alloc(HEAD_BYTES);
        const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
        size = imageSize(head.subarray(0, bytesRead)) ?? null;
      } finally {
        await handle.close();
      }
    } catch {
      // Not remembered: the file may be readable at the next request (a descriptor limit, a disk coming back).
      return null;
    }
    // A bounded memory: clients' logos are few, but each import may bring a new one.
    if (this.#known.size >= 1_000) this.#known.clear();
    this.#known.set(logoUrl, size);
    return size;
  }
}
