/** A file type the due-diligence upload accepts, decided by the file's bytes, never by its name. */
export interface AllowedType {
  mime: string;
  ext: string;
}

const MARKERS = {
  contentTypes: Buffer.from('[Content_Types].xml'),
  word: Buffer.from('word/'),
  excel: Buffer.from('xl/'),
  powerpoint: Buffer.from('ppt/'),
  oleWord: Buffer.from('WordDocument', 'utf16le'),
  oleWorkbook: Buffer.from('Workbook', 'utf16le'),
  oleBook: Buffer.from('Book', 'utf16le'),
} as const;
type Marker = keyof typeof MARKERS;
const LONGEST = Math.max(...Object.values(MARKERS).map((m) => m.length));
const HEAD_BYTES = 64;

const startsWith = (head: Buffer, bytes: number[], offset = 0): boolean =>
  head.length >= offset + bytes.length && bytes.every((b, i) => head[offset + i] === b);

/**
 * Sniffs a file while it streams: keeps its first bytes, looks for the markers that tell Office formats
 * apart, and checks whether it is valid UTF-8 text without NUL bytes.
 */
export class FileSniffer {
  #head = Buffer.alloc(0);
  #tail = Buffer.alloc(0);
  #found = new Set<Marker>();
  #decoder = new TextDecoder('utf-8', { fatal: true });
  #text = true;
  #size = 0;

  update(chunk: Buffer): void {
    this.#size += chunk.length;
    if (this.#head.length < HEAD_BYTES) {
      this.#head = Buffer.concat([this.#head, chunk.subarray(0, HEAD_BYTES - this.#head.length)]);
    }
    const window = Buffer.concat([this.#tail, chunk]);
    for (const [name, marker] of Object.entries(MARKERS) as [Marker, Buffer][]) {
      if (!this.#found.has(name) && window.includes(marker)) this.#found.add(name);
    }
    this.#tail = window.subarray(Math.max(0, window.length - (LONGEST - 1)));
    if (this.#text) {
      if (chunk.includes(0)) {
        this.#text = false;
      } else {
        try {
          this.#decoder.decode(chunk, { stream: true });
        } catch {
          this.#text = false;
        }
      }
    }
  }

  /** The detected allowed type, or `undefined` when the content is not on the allow-list. */
  finish(fileName: string): AllowedType | undefined {
    const head = this.#head;
    if (head.subarray(0, 5).toString('latin1') === '%PDF-') {
      return { mime: 'application/pdf', ext: 'pdf' };
    }
    if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) {
      return { mime: 'image/png', ext: 'png' };
    }
    if (startsWith(head, [0xff, 0xd8, 0xff])) return { mime: 'image/jpeg', ext: 'jpg' };
    const six = head.subarray(0, 6).toString('latin1');
    if (six === 'GIF87a' || six === 'GIF89a') return { mime: 'image/gif', ext: 'gif' };
    if (
      head.subarray(0, 4).toString('latin1') === 'RIFF' &&
      head.subarray(8, 12).toString('latin1') === 'WEBP'
    ) {
      return { mime: 'image/webp', ext: 'webp' };
    }
    if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) && this.#found.has('contentTypes')) {
      if (this.#found.has('word')) {
        return {
          mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
          ext: 'docx',
        };
      }
      if (this.#found.has('excel')) {
        return {
          mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          ext: 'xlsx',
        };
      }
      if (this.#found.has('powerpoint')) {
        return {
          mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
          ext: 'pptx',
        };
      }
      return undefined;
    }
    if (startsWith(head, [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])) {
      if (this.#found.has('oleWord')) return { mime: 'application/msword', ext: 'doc' };
      if (this.#found.has('oleWorkbook') || this.#found.has('oleBook')) {
        return { mime: 'application/vnd.ms-excel', ext: 'xls' };
      }
      return undefined;
    }
    if (this.#text && this.#size > 0) {
      try {
        this.#decoder.decode();
      } catch {
        return undefined;
      }
      return /\.csv$/i.test(fileName)
        ? { mime: 'text/csv', ext: 'csv' }
        : { mime: 'text/plain', ext: 'txt' };
    }
    return undefined;
  }
}
