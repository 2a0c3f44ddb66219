import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RateWindow, UserAndAddressLimit } from '../../src/services/rate-window.js';

describe('RateWindow', () => {
  it('should allow the limit in a window, refuse the rest with the time left, and start again after', () => {
    const window = new RateWindow(3, 1000);
    expect([0, 1, 2].map((i) => window.hit('a', 100 + i))).toEqual([0, 0, 0]);
    expect(window.hit('a', 400)).toBe(700);
    expect(window.hit('a', 1099)).toBe(1);
    expect(window.hit('b', 1099)).toBe(0);
    expect(window.hit('a', 1100)).toBe(0);
  });

  it('should allow at most twice the limit in any span of a window, whatever the times', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.array(fc.tuple(fc.constantFrom('a', 'b'), fc.integer({ min: 0, max: 50 })), {
          maxLength: 200,
        }),
        (limit, events) => {
          const window = new RateWindow(limit, 100);
          let now = 0;
          const allowed: Record<string, number[]> = { a: [], b: [] };
          for (const [key, step] of events) {
            now += step;
            if (window.hit(key, now) === 0) allowed[key]?.push(now);
          }
          // Fixed windows: a window holds at most `limit`, so any 100 ms (which meets at most two) holds at
          // most twice that; and a key with events at least a window apart is never refused.
          for (const times of Object.values(allowed)) {
            for (const [i, start] of times.entries()) {
              expect(times.slice(i).filter((t) => t < start + 100).length).toBeLessThanOrEqual(
                2 * limit,
              );
            }
          }
          const sparse = new RateWindow(limit, 100);
          expect(events.every(([key], i) => sparse.hit(key, i * 100) === 0)).toBe(true);
        },
      ),
    );
  });

  it('should hold at most maxKeys keys, dropping windows already over first', () => {
    const window = new RateWindow(1, 100, 3);
    window.hit('old', 0);
    window.hit('a', 150);
    window.hit('b', 150);
    window.hit('c', 150); // 'old' is over: dropped
    expect(window.size).toBe(3);
    expect(window.hit('a', 160)).toBeGreaterThan(0); // 'a' kept its count
    window.hit('d', 160); // all live: the oldest ('a') goes
    expect(window.size).toBe(3);
    expect(window.hit('a', 170)).toBe(0);
  });

  it('should refuse a limit or window that is not usable', () => {
    expect(() => new RateWindow(0, 100)).toThrow('limit');
    expect(() => new RateWindow(1.5, 100)).toThrow('limit');
    expect(() => new RateWindow(1, 0)).toThrow('windowMs');
  });
  it('should give back an event only to the window it was counted in', () => {
    const window = new RateWindow(2, 100);
    expect(window.hit('a', 0)).toBe(0);
    expect(window.hit('a', 10)).toBe(0);
    expect(window.hit('a', 20)).toBeGreaterThan(0);
    window.release('a', 10);
    expect(window.hit('a', 30)).toBe(0);
    expect(window.hit('a', 40)).toBeGreaterThan(0);
    // Counted in a window that is over: the new window keeps its count.
    expect(window.hit('a', 150)).toBe(0);
    window.release('a', 10);
    expect(window.hit('a', 160)).toBe(0);
    expect(window.hit('a', 170)).toBeGreaterThan(0);
    // Never below nothing, and an unknown key is ignored.
    window.release('b', 0);
    expect(window.size).toBe(1);
  });
});

describe('UserAndAddressLimit', () => {
  it('should count an event against the user and the address, or against neither', () => {
    const limit = new UserAndAddressLimit(2, 3, 1_000);
    expect(limit.hit('ada', '192.0.2.1', 0)).toBe(0);
    expect(limit.hit('ada', '192.0.2.1', 10)).toBe(0);
    // The user's window is full: refused, and the address's count is untouched.
    expect(limit.hit('ada', '192.0.2.1', 20)).toBe(980);
    expect(limit.hit('grace', '192.0.2.1', 30)).toBe(0);
    // The address's window is full: refused, and the new user's count is given back.
    expect(limit.hit('alan', '192.0.2.1', 40)).toBe(960);
    expect(limit.hit('alan', '198.51.100.7', 50)).toBe(0);
    expect(limit.hit('alan', '198.51.100.7', 60)).toBe(0);
    expect(limit.hit('alan', '198.51.100.7', 70)).toBeGreaterThan(0);
  });

  it('should give an event back to both windows', () => {
    const limit = new UserAndAddressLimit(1, 1, 1_000);
    expect(limit.hit('ada', '192.0.2.1', 0)).toBe(0);
    expect(limit.hit('ada', '192.0.2.1', 10)).toBeGreaterThan(0);
    limit.release('ada', '192.0.2.1', 0);
    expect(limit.hit('ada', '192.0.2.1', 20)).toBe(0);
  });
});
