import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';
import { FifoLock } from '../../src/db/sqlite-dialect.js';
import { isOutOfSpace } from '../../src/services/disk-space.js';

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

/**
 * Found by the sixteenth session's fault probe: when the disk filled, SQLite ended the transaction itself, the
 * rollback that followed failed with "cannot rollback - no transaction is active", and that error replaced the
 * one that ended the transaction: warranty quotes and logins were answered 500 "Internal server error" instead of
 * 507 with the full disk's message (and the log never said SQLITE_FULL).
 */
describe('a transaction SQLite has already ended', () => {
  it('should fail with the error that ended it, not with the rollback that has nothing to undo', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'firm-dialect-'));
    const db = await openDatabase({ databaseUrl: null, databaseSchema: null, dataDir: dir });
    try {
      const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
      const failed = await db.kysely
        .transaction()
        .execute(async (trx) => {
          await sql`insert into sequences (client_id, kind, year, value) values ('c', 'F', 1, 1)`.execute(
            trx,
          );
          // As SQLite does on a full disk: the transaction is over before the statement's error is seen.
          await sql`rollback`.execute(trx);
          throw full;
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect(failed).toBe(full);
      expect(isOutOfSpace(failed)).toBe(true);
      // Nothing of it stayed, and the connection works.
      const rows = await sql<{
        n: number;
      }>`select count(*) as n from sequences where kind = 'F'`.execute(db.kysely);
      expect(rows.rows[0]?.n).toBe(0);

      // A transaction that fails while SQLite still has it open is rolled back as before (with the database
      // behind the statement cache, which once hid whether a transaction was open: the rollback was skipped, the
      // transaction left open, and every later one failed with "cannot start a transaction within a
      // transaction").
      const refused = await db.kysely
        .transaction()
        .execute(async (trx) => {
          await sql`insert into sequences (client_id, kind, year, value) values ('c', 'G', 1, 1)`.execute(
            trx,
          );
          throw new Error('refused');
        })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      expect((refused as Error).message).toBe('refused');
      await db.kysely.transaction().execute(async (trx) => {
        await sql`insert into sequences (client_id, kind, year, value) values ('c', 'H', 1, 1)`.execute(
          trx,
        );
      });
      const kinds = await sql<{
        kind: string;
      }>`select kind from sequences where kind in ('F', 'G', 'H') order by kind`.execute(db.kysely);
      expect(kinds.rows.map((row) => row.kind)).toEqual(['H']);
    } finally {
      await db.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
