import { describe, expect, it } from 'vitest';
import { orderedId } from '../../src/db/ordered-id.js';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('orderedId', () => {
  it('should make RFC 9562 version 7 UUIDs carrying the time in milliseconds', () => {
    const at = Date.parse('2026-03-02T09:00:00.123Z');
    const id = orderedId(at);
    expect(id).toMatch(UUID_V7);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(at);
    expect(orderedId(0).startsWith('00000000-0000-7')).toBe(true);
  });

  it('should sort ids of later milliseconds after earlier ones', () => {
    const start = Date.parse('2026-03-02T09:00:00.000Z');
    const ids = Array.from({ length: 2000 }, (_, i) => orderedId(start + i * 7));
    expect([...ids].sort()).toEqual(ids);
  });

  it('should not repeat, and vary in every random position, within one millisecond', () => {
    const ids = Array.from({ length: 5000 }, () => orderedId(1_772_442_000_000));
    expect(new Set(ids).size).toBe(5000);
    for (const id of ids) expect(id).toMatch(UUID_V7);
    const hex = ids.map((id) => id.replace(/-/g, ''));
    // Positions 13–31 hold random bits (16 is the variant, two random bits of 4): each takes several values.
    for (const position of [13, 14, 15, 17, 20, 25, 31]) {
      expect(new Set(hex.map((h) => h[position])).size).toBeGreaterThan(8);
    }
    expect(new Set(hex.map((h) => h[16]))).toEqual(new Set(['8', '9', 'a', 'b']));
  });

  it('should refuse a time that is not a whole number of milliseconds in range', () => {
    for (const bad of [Number.NaN, -1, 1.5, 2 ** 48]) {
      expect(() => orderedId(bad)).toThrow(RangeError);
    }
  });
});
