/**
 * The outbox worker's claim (`claimDue`) on both databases: which rows it takes and what it leaves. The worker's
 * own tests run on SQLite only; on PostgreSQL the claim also skips the rows another instance is claiming.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../src/db/connect.js';
import type { Database } from '../../src/db/schema.js';
import {
  claimDue,
  enqueue,
  releaseGoneClaims,
  type OutboxRow,
} from '../../src/repositories/outbox.js';
import { createPgSchema, databases } from '../helper.js';

const NOW = new Date('2026-03-02T09:00:00.000Z');
const LEASE_MS = 5 * 60_000;
const at = (ms: number) => new Date(NOW.getTime() + ms).toISOString();

class Rollback extends Error {}

/** What `claim` returns when run in a transaction that is then undone (the rows are left as they were). */
async function undone<T>(db: Db, claim: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  let result: T | undefined;
  await db.kysely
    .transaction()
    .execute(async (trx) => {
      result = await claim(trx);
      throw new Rollback();
    })
    .catch((error: unknown) => {
      if (!(error instanceof Rollback)) throw error;
    });
  return result as T;
}

describe.each(databases)('the outbox claim ($name)', (target) => {
  let db: Db;
  let dir: string;
  /** Row ids by what the scenario made of them. */
  let ids: Record<'due' | 'expired' | 'leased' | 'later' | 'sent' | 'forward' | 'newest', string>;

  beforeEach(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'firm-outbox-claim-'));
    db = await openDatabase({
      databaseUrl: target.url,
      databaseSchema: target.url === null ? null : (await createPgSchema(target.url)).schema,
      dataDir: dir,
      databasePoolSize: 2,
    });
    const mail = {
      kind: 'mail' as const,
      payload: { to: 't@example.com', subject: 's', text: 't' },
    };
    const queue = async (
      job: Parameters<typeof enqueue>[1],
      fields: Partial<Record<'next_attempt_at' | 'locked_until' | 'sent_at', string>>,
    ) => {
      const id = await enqueue(db.kysely, job, new Date(NOW.getTime() - 3_600_000));
      await db.kysely.updateTable('outbox').set(fields).where('id', '=', id).execute();
      return id;
    };
    ids = {
      due: await queue(mail, { next_attempt_at: at(-180_000) }),
      expired: await queue(mail, { next_attempt_at: at(-120_000), locked_until: at(-1_000) }),
      leased: await queue(mail, { next_attempt_at: at(-60_000), locked_until: at(60_000) }),
      later: await queue(mail, { next_attempt_at: at(60_000) }),
      sent: await queue(mail, { next_attempt_at: at(-240_000), sent_at: at(-200_000) }),
      forward: await queue(
        { kind: 'forward', payload: { url: 'http://127.0.0.1:1/', fields: {} } },
        { next_attempt_at: at(-300_000) },
      ),
      newest: await queue(mail, { next_attempt_at: at(-30_000) }),
    };
  });
  afterEach(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('should claim the due rows of one kind that no lease holds, oldest due first, up to the limit', async () => {
    for (const [kind, limit, expected] of [
      ['mail', 2, [ids.due, ids.expired]],
      ['mail', 100, [ids.due, ids.expired, ids.newest]],
      ['forward', 100, [ids.forward]],
    ] as const) {
      const claimed = await undone(db, (trx) =>
        claimDue(trx, db.dialect, NOW, LEASE_MS, limit, kind),
      );
      expect(claimed.map((row) => row.id)).toEqual(expected);
      expect(claimed.every((row) => row.locked_until === at(LEASE_MS) && row.attempts === 0)).toBe(
        true,
      );
    }
    // Committed, the claim holds its rows for the lease: a second claim finds only what is left.
    const first = await db.write((trx) => claimDue(trx, db.dialect, NOW, LEASE_MS, 2, 'mail'));
    expect(first.map((row) => row.id)).toEqual([ids.due, ids.expired]);
    const second = await db.write((trx) => claimDue(trx, db.dialect, NOW, LEASE_MS, 100, 'mail'));
    expect(second.map((row) => row.id)).toEqual([ids.newest]);
    const stored = await db.kysely
      .selectFrom('outbox')
      .select(['id', 'locked_until'])
      .where('id', 'in', [ids.leased, ids.later, ids.sent])
      .execute();
    expect(Object.fromEntries(stored.map((row) => [row.id, row.locked_until]))).toEqual({
      [ids.leased]: at(60_000),
      [ids.later]: null,
      [ids.sent]: null,
    });
  });

  // Found by the twenty-eighth session's probe: after a SIGKILL, what the killed worker had claimed waited for its
  // lease. A claim keeps its claimant; a starting worker gives up those of claimants known to be gone.
  it('should keep who claimed a row, and give up only the unexpired claims of claimants that are gone', async () => {
    const claimed = await db.write((trx) =>
      claimDue(trx, db.dialect, NOW, LEASE_MS, 1, 'mail', 'host/1/aaaaaaaa'),
    );
    expect(claimed.map((row) => [row.id, row.claimed_by])).toEqual([[ids.due, 'host/1/aaaaaaaa']]);
    const claim = (id: string, claimedBy: string, lockedUntil: string, sentAt?: string) =>
      db.kysely
        .updateTable('outbox')
        .set({
          claimed_by: claimedBy,
          locked_until: lockedUntil,
          ...(sentAt ? { sent_at: sentAt } : {}),
        })
        .where('id', '=', id)
        .execute();
    await claim(ids.leased, 'gone', at(60_000));
    await claim(ids.forward, 'gone', at(60_000));
    await claim(ids.expired, 'gone', at(-1_000));
    await claim(ids.sent, 'gone', at(60_000), at(-200_000));
    await claim(ids.newest, 'live', at(60_000));
    const asked: string[] = [];
    const released = await db.write((trx) =>
      releaseGoneClaims(trx, NOW, (claimant) => {
        asked.push(claimant);
        return claimant === 'gone';
      }),
    );
    // The leased mail and forward; not the expired claim (due already), the sent row or a live claimant's.
    expect(released).toBe(2);
    expect(asked.sort()).toEqual(['gone', 'gone', 'host/1/aaaaaaaa', 'live']);
    const rows = await db.kysely
      .selectFrom('outbox')
      .select(['id', 'locked_until', 'claimed_by'])
      .execute();
    const byId = Object.fromEntries(rows.map((row) => [row.id, row]));
    expect(byId[ids.leased]).toEqual({ id: ids.leased, locked_until: null, claimed_by: null });
    expect(byId[ids.forward]).toEqual({ id: ids.forward, locked_until: null, claimed_by: null });
    expect(byId[ids.expired]?.claimed_by).toBe('gone');
    expect(byId[ids.sent]?.locked_until).toBe(at(60_000));
    expect(byId[ids.newest]?.locked_until).toBe(at(60_000));
    expect(byId[ids.due]?.claimed_by).toBe('host/1/aaaaaaaa');
    // Given up, the rows are due at once, to the next claim.
    const next = await db.write((trx) => claimDue(trx, db.dialect, NOW, LEASE_MS, 100, 'mail'));
    expect(next.map((row) => row.id)).toEqual([ids.expired, ids.leased]);
  });

  it.runIf(target.name === 'postgres')(
    'should skip the rows another transaction is claiming (FOR UPDATE SKIP LOCKED)',
    async () => {
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let claimedFirst!: (rows: OutboxRow[]) => void;
      const firstClaimed = new Promise<OutboxRow[]>((resolve) => (claimedFirst = resolve));
      const first = db.kysely.transaction().execute(async (trx) => {
        claimedFirst(await claimDue(trx, db.dialect, NOW, LEASE_MS, 2, 'mail'));
        await held;
      });
      expect((await firstClaimed).map((row) => row.id)).toEqual([ids.due, ids.expired]);
      const second = await db.kysely
        .transaction()
        .execute((trx) => claimDue(trx, db.dialect, NOW, LEASE_MS, 100, 'mail'));
      release();
      await first;
      expect(second.map((row) => row.id)).toEqual([ids.newest]);
    },
  );
});
