/**
 * A canonical serialisation of plain data: JSON with object keys sorted, so the same content
 * always gives the same text whatever order its keys were written in.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item)).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    const entries = Object.keys(record)
      .sort()
      .filter((key) => record[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson(record[key])}`);
    return `{${entries.join(',')}}`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new Error(`Rate tables hold a non-finite number: ${value}`);
  }
  return JSON.stringify(value);
}

const TWO_32 = 0x1_0000_0000;
/** The 64-bit FNV prime, 2^40 + 0x1b3, applied as `h × 0x1b3 + (h << 40)`. */
const FNV_PRIME_LOW = 0x1b3;

/**
 * 64-bit FNV-1a of a string's UTF-8 bytes, as 16 hex digits. Not cryptographic: it only has to
 * change when the tables change.
 *
 * Computed on two 32-bit halves with exact double arithmetic (every intermediate stays below 2^53)
 * rather than BigInt: the version is hashed when the library loads, in the browser too, and BigInt
 * took most of the load time. A property test holds it equal to the BigInt definition.
 */
export function fnv1a64(text: string): string {
  let hi = 0xcbf29ce4;
  let lo = 0x84222325;
  for (const byte of new TextEncoder().encode(text)) {
    lo = (lo ^ byte) >>> 0;
    const low = lo * FNV_PRIME_LOW; // < 2^41
    const carry = Math.floor(low / TWO_32);
    // (h << 40) puts the low 24 bits of `lo` at bits 40–63, i.e. bits 8–31 of the high half.
    hi = (hi * FNV_PRIME_LOW + carry + (lo & 0xffffff) * 256) % TWO_32;
    lo = low % TWO_32;
  }
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/**
 * The rate-table version of a set of tables: the publication date and the first 12 hex digits of
 * the hash of their canonical serialisation, e.g. `2026-11-21.3f09a1c2b7d4`.
 *
 * @param tables The tables (plain data).
 * @param published The date the tables were published (YYYY-MM-DD).
 *
 * @returns A version string that changes whenever any table content changes.
 */
export function computeRateTableVersion(tables: unknown, published: string): string {
  return `${published}.${fnv1a64(canonicalJson(tables)).slice(0, 12)}`;
}
