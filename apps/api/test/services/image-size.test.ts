import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { imageSize, LogoSizes } from '../../src/services/image-size.js';

/** A PNG's signature and IHDR chunk. */
function png(width: number, height: number): Buffer {
  const head = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(head, 0);
  head.writeUInt32BE(13, 8);
  head.write('IHDR', 12, 'latin1');
  head.writeUInt32BE(width, 16);
  head.writeUInt32BE(height, 20);
  return head;
}

/** A JPEG with an APP0 segment and a comment before its baseline frame header. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([
    0xff,
    0xe0,
    0x00,
    0x10,
    ...Buffer.from('JFIF\0'),
    1,
    1,
    0,
    0,
    1,
    0,
    1,
    0,
    0,
  ]);
  const comment = Buffer.concat([Buffer.from([0xff, 0xfe, 0x00, 0x07]), Buffer.from('hello')]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, 0, 0, 0, 0, 3]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, comment, sof, Buffer.alloc(12)]);
}

function webp(chunk: 'VP8 ' | 'VP8L' | 'VP8X', width: number, height: number): Buffer {
  const head = Buffer.alloc(40);
  head.write('RIFF', 0, 'latin1');
  head.write('WEBP', 8, 'latin1');
  head.write(chunk, 12, 'latin1');
  if (chunk === 'VP8 ') {
    head.writeUInt16LE(width, 26);
    head.writeUInt16LE(height, 28);
  } else if (chunk === 'VP8L') {
    head[20] = 0x2f;
    head.writeUInt32LE((width - 1) | ((height - 1) << 14), 21);
  } else {
    head.writeUIntLE(width - 1, 24, 3);
    head.writeUIntLE(height - 1, 27, 3);
  }
  return head;
}

describe('imageSize', () => {
  it('should read the size each image format says it has', () => {
    expect(imageSize(png(240, 64))).toEqual({ width: 240, height: 64 });
    const gif = Buffer.alloc(13);
    gif.write('GIF89a', 0, 'latin1');
    gif.writeUInt16LE(320, 6);
    gif.writeUInt16LE(100, 8);
    expect(imageSize(gif)).toEqual({ width: 320, height: 100 });
    expect(imageSize(jpeg(1024, 768))).toEqual({ width: 1024, height: 768 });
    expect(imageSize(webp('VP8 ', 400, 300))).toEqual({ width: 400, height: 300 });
    expect(imageSize(webp('VP8L', 500, 125))).toEqual({ width: 500, height: 125 });
    expect(imageSize(webp('VP8X', 4000, 1000))).toEqual({ width: 4000, height: 1000 });
  });

  it('should read an SVG’s width and height, else its viewBox', () => {
    const svg = (root: string) =>
      Buffer.from(`<?xml version="1.0"?>\n<!-- logo -->\n${root}<rect/></svg>`);
    expect(
      imageSize(
        svg(
          '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 64" width="240" height="64">',
        ),
      ),
    ).toEqual({ width: 240, height: 64 });
    expect(imageSize(svg("<svg width='120px' height='32px'>"))).toEqual({ width: 120, height: 32 });
    expect(imageSize(svg('<svg viewBox="0 0 260 64" width="100%">'))).toEqual({
      width: 260,
      height: 64,
    });
    expect(imageSize(svg('<svg viewBox="10,10 48.5,12">'))).toEqual({ width: 48.5, height: 12 });
    expect(imageSize(svg('<svg width="2em" height="1em">'))).toBeUndefined();
  });

  it('should tell no size for what says none, or nonsense', () => {
    expect(imageSize(Buffer.from('%PDF-1.7'))).toBeUndefined();
    expect(imageSize(Buffer.alloc(0))).toBeUndefined();
    expect(imageSize(png(0, 64))).toBeUndefined();
    expect(imageSize(png(240, 64).subarray(0, 20))).toBeUndefined();
    expect(imageSize(Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x02]))).toBeUndefined();
    expect(imageSize(jpeg(1024, 768).subarray(0, 30))).toBeUndefined();
    expect(imageSize(Buffer.from('<svg viewBox="0 0 -5 10">'))).toBeUndefined();
  });

  it('should read lengths written with spaces and px, and tell none of an odd one', () => {
    expect(imageSize(Buffer.from('<svg width=" 120 px " height="32.5\n">'))).toEqual({
      width: 120,
      height: 32.5,
    });
    for (const odd of ['px', '1 2', '1e3', '-4', '12pxpx', '.5', '']) {
      expect(imageSize(Buffer.from(`<svg width="${odd}" height="10">`)), odd).toBeUndefined();
    }
  });

  // Found by the thirty-first session's portal probe (the amount fields' like pattern): 50,000 spaces in a logo's
  // width took 4 s of the server's one thread, and 128 KB of `<svg` with no `>` about 4 s, when the client was first
  // asked for.
  it('should read heads of long runs of spaces, digits or unclosed roots at once', () => {
    const heads = [
      `<svg width="1${' '.repeat(60_000)}x" height="10">`,
      `<svg width="${'1'.repeat(30_000)}${' '.repeat(30_000)}x" height="10">`,
      '<svg '.repeat(26_000),
    ];
    for (const head of heads) {
      const started = performance.now();
      expect(imageSize(Buffer.from(head))).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(1_000);
    }
  });
});

describe('LogoSizes', () => {
  it('should read a client’s logo in its media folder once, and nothing outside it', async () => {
    const mediaDir = await mkdtemp(path.join(tmpdir(), 'firm-logo-'));
    try {
      await mkdir(path.join(mediaDir, 'demo'));
      await writeFile(path.join(mediaDir, 'demo', 'a1.png'), png(240, 64));
      await writeFile(path.join(mediaDir, 'secret.png'), png(1, 1));
      const sizes = new LogoSizes(mediaDir);
      expect(await sizes.of('demo', '/media/demo/a1.png')).toEqual({ width: 240, height: 64 });
      // Remembered by its address (a logo's name is its content's hash).
      await rm(path.join(mediaDir, 'demo', 'a1.png'));
      expect(await sizes.of('demo', '/media/demo/a1.png')).toEqual({ width: 240, height: 64 });
      expect(await sizes.of('demo', null)).toBeNull();
      expect(await sizes.of('demo', '/media/demo/../secret.png')).toBeNull();
      expect(await sizes.of('demo', '/media/other/a1.png')).toBeNull();
      expect(await sizes.of('demo', '/media/demo/missing.png')).toBeNull();
    } finally {
      await rm(mediaDir, { recursive: true, force: true });
    }
  });
});
