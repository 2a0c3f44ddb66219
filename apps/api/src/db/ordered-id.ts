import { randomFillSync } from 'node:crypto';

const POOL_IDS = 256;
const pool = Buffer.alloc(POOL_IDS * 10);
let next = POOL_IDS;
const hex = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/**
 * A UUID version 7 (RFC 9562): 48 bits of Unix time in milliseconds, then 74 random bits. Ids made later
 * sort later, so a batch of inserts lands at the right-hand end of the primary-key index (a few pages)
 * instead of on a random page each, which is what a random (version 4) id costs on every commit.
 */
export function orderedId(now = Date.now()): string {
  if (!Number.isSafeInteger(now) || now < 0 || now >= 2 ** 48) {
    throw new RangeError(`orderedId: not a time in milliseconds: ${now}`);
  }
  if (next === POOL_IDS) {
    randomFillSync(pool);
    next = 0;
  }
  const r = next * 10;
  next += 1;
  const b = (i: number) => hex[pool[r + i] as number] as string;
  const ms = now.toString(16).padStart(12, '0');
  const variant = hex[((pool[r + 2] as number) & 0x3f) | 0x80] as string;
  return (
    `${ms.slice(0, 8)}-${ms.slice(8, 12)}-` +
    `7${b(0).slice(1)}${b(1)}-${variant}${b(3)}-${b(4)}${b(5)}${b(6)}${b(7)}${b(8)}${b(9)}`
  );
}
