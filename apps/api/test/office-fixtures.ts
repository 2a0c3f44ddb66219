import { crc32 } from 'node:zlib';

/**
 * A well-formed ZIP (entries stored, not compressed): local headers, central directory, end record, then the
 * archive comment.
 */
export function zip(
  entries: [name: string, content: string | Buffer][],
  { comment = '' } = {},
): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, content] of entries) {
    const nameBytes = Buffer.from(name, 'utf8');
    const data = Buffer.isBuffer(content) ? content : Buffer.from(content, 'utf8');
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4); // version needed
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    locals.push(local, nameBytes, data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(nameBytes.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, nameBytes);
    offset += 30 + nameBytes.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const commentBytes = Buffer.from(comment, 'latin1');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  end.writeUInt16LE(commentBytes.length, 20);
  return Buffer.concat([...locals, directory, end, commentBytes]);
}

const CONTENT_TYPES =
  '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>';

/** A minimal Word document package: [Content_Types].xml, the relationships and word/document.xml. */
export const docx = (): Buffer =>
  zip([
    ['[Content_Types].xml', CONTENT_TYPES],
    ['_rels/.rels', '<Relationships/>'],
    ['word/document.xml', '<w:document/>'],
  ]);

/** A minimal Excel workbook package. */
export const xlsx = (): Buffer =>
  zip([
    ['[Content_Types].xml', CONTENT_TYPES],
    ['xl/workbook.xml', '<workbook/>'],
  ]);

/**
 * A compound file (version 3, 512-byte sectors) whose root storage holds empty streams with these names:
 * the header, one FAT sector, one directory sector.
 */
export function compoundFile(streams: string[]): Buffer {
  const SECTOR = 512;
  const FREE = 0xffffffff;
  const END = 0xfffffffe;
  const FAT_SECTOR = 0xfffffffd;
  const header = Buffer.alloc(SECTOR);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header, 0);
  header.writeUInt16LE(0x3e, 0x18); // minor version
  header.writeUInt16LE(3, 0x1a); // major version
  header.writeUInt16LE(0xfffe, 0x1c); // byte order
  header.writeUInt16LE(9, 0x1e); // sector shift: 512
  header.writeUInt16LE(6, 0x20); // mini sector shift
  header.writeUInt32LE(1, 0x2c); // one FAT sector
  header.writeUInt32LE(1, 0x30); // the directory starts at sector 1
  header.writeUInt32LE(0x1000, 0x38); // mini stream cutoff
  header.writeUInt32LE(END, 0x3c); // no mini FAT
  header.writeUInt32LE(END, 0x44); // no DIFAT sectors
  for (let i = 0; i < 109; i += 1) header.writeUInt32LE(i === 0 ? 0 : FREE, 0x4c + i * 4);
  const fat = Buffer.alloc(SECTOR, 0xff);
  fat.writeUInt32LE(FAT_SECTOR, 0);
  fat.writeUInt32LE(END, 4);
  if (streams.length > 3) throw new Error('one directory sector holds the root and three streams');
  const directory = Buffer.alloc(SECTOR);
  const entry = (index: number, name: string, type: number, child: number, right: number) => {
    const at = index * 128;
    const nameBytes = Buffer.from(`${name}\u0000`, 'utf16le');
    nameBytes.copy(directory, at);
    directory.writeUInt16LE(nameBytes.length, at + 0x40);
    directory[at + 0x42] = type;
    directory[at + 0x43] = 1; // black
    directory.writeUInt32LE(FREE, at + 0x44); // left sibling
    directory.writeUInt32LE(right, at + 0x48);
    directory.writeUInt32LE(child, at + 0x4c);
    directory.writeUInt32LE(END, at + 0x74); // starting sector (empty stream)
  };
  entry(0, 'Root Entry', 5, streams.length > 0 ? 1 : FREE, FREE);
  streams.forEach((name, i) => {
    entry(i + 1, name, 2, FREE, i + 2 <= streams.length ? i + 2 : FREE);
  });
  return Buffer.concat([header, fat, directory]);
}

/**
 * A compound file (512-byte sectors) whose directory is a chain of `directorySectors` sectors, walked from the
 * file's end back to its start; the first sector of the chain holds the root storage and `streams`, the rest
 * are empty entries. At most 109 FAT sectors (some 7 MB).
 */
export function compoundFileWithLongDirectory(directorySectors: number, streams: string[]): Buffer {
  const SECTOR = 512;
  const PER_FAT = SECTOR / 4;
  const fatSectors = Math.ceil(
    (directorySectors + Math.ceil(directorySectors / PER_FAT)) / PER_FAT,
  );
  if (fatSectors > 109) throw new Error('the header lists at most 109 FAT sectors');
  const small = compoundFile(streams);
  const header = Buffer.from(small.subarray(0, SECTOR));
  header.writeUInt32LE(fatSectors, 0x2c);
  for (let i = 0; i < 109; i += 1)
    header.writeUInt32LE(i < fatSectors ? i : 0xffffffff, 0x4c + i * 4);
  const last = fatSectors + directorySectors - 1;
  header.writeUInt32LE(last, 0x30); // the chain starts at the last sector…
  const fat = Buffer.alloc(fatSectors * SECTOR, 0xff);
  for (let i = 0; i < fatSectors; i += 1) fat.writeUInt32LE(0xfffffffd, i * 4);
  for (let sector = last; sector >= fatSectors; sector -= 1) {
    fat.writeUInt32LE(sector > fatSectors ? sector - 1 : 0xfffffffe, sector * 4); // …and walks back
  }
  const directory = Buffer.alloc(directorySectors * SECTOR);
  small.subarray(2 * SECTOR, 3 * SECTOR).copy(directory, (directorySectors - 1) * SECTOR);
  return Buffer.concat([header, fat, directory]);
}
