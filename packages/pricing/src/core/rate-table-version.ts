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

const FNV_OFFSET = 0xcbf29ce484222325n;
const FNV_PRIME = 0x100000001b3n;
const MASK_64 = 0xffffffffffffffffn;

/**
 * 64-bit FNV-1a of a string's UTF-8 bytes, as 16 hex digits. Not cryptographic: it only has to
 * change when the tables change.
 */
export function fnv1a64(text: string): string {
  let hash = FNV_OFFSET;
  for (const byte of new TextEncoder().encode(text)) {
    hash = ((hash ^ BigInt(byte)) * FNV_PRIME) & MASK_64;
  }
  return hash.toString(16).padStart(16, '0');
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
