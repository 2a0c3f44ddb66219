import { describe, expect, it } from 'vitest';
import { FifoLock } from '../../src/db/sqlite-dialect.js';

describe('FifoLock', () => {
  it('should hand the lock to waiters in arrival order, before anyone arriving later', async () => {
    const lock = new FifoLock();
    const order: string[] = [];
    const holder = async (name: string, then?: () => void) => {
      await lock.lock();
      order.push(name);
      then?.();
      await Promise.resolve();
      lock.unlock();
    };
    await lock.lock();
    const waiters = ['a', 'b', 'c'].map((name) =>
      holder(name, name === 'a' ? () => void holder('late') : undefined),
    );
    expect(lock.waiting).toBe(3);
    lock.unlock();
    await Promise.all(waiters);
    await new Promise((resolve) => setImmediate(resolve));
    // "late" asked while "a" held the lock, after b and c were already waiting.
    expect(order).toEqual(['a', 'b', 'c', 'late']);
    expect(lock.waiting).toBe(0);
  });

  it('should be free again once the last holder unlocks, across many waiters', async () => {
    const lock = new FifoLock();
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 3000 }, async (_, i) => {
        await lock.lock();
        order.push(i);
        lock.unlock();
      }),
    );
    expect(order).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    let acquired = false;
    void lock.lock().then(() => (acquired = true));
    await Promise.resolve();
    expect(acquired).toBe(true);
  });
});
