import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskSpace } from '../../src/services/disk-space.js';

describe('DiskSpace', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'firm-disk-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('should read the free space of the folder’s file system', async () => {
    const free = await new DiskSpace(dir, 1).free(0);
    expect(Number.isFinite(free)).toBe(true);
    expect(free).toBeGreaterThan(0);
  });

  // Found by the thirty-first session's fault probe: a server started on a disk under the minimum refused every
  // submission without telling the operator why.
  it('should say at start, with the figures, that the free space is under the minimum', async () => {
    const free = await new DiskSpace(dir, 1).free();
    expect(await new DiskSpace(dir, 0).startProblem()).toBeUndefined();
    expect(await new DiskSpace(dir, 1).startProblem()).toBeUndefined();
    const floor = free + 1024 ** 4;
    expect(await new DiskSpace(dir, floor).startProblem()).toMatch(
      new RegExp(
        `^The disk of ${dir} has [\\d,]+ MB free, under MIN_FREE_DISK_MB \\(${Math.floor(
          floor / 1024 ** 2,
        ).toLocaleString(
          'en-GB',
        )} MB\\): every quote and due diligence request is refused \\(507\\)`,
      ),
    );
  });

  it('should allow a write only while the minimum stays free after it', async () => {
    const probe = new DiskSpace(dir, 1);
    const free = await probe.free(0);
    expect(await probe.allows(0, 0)).toBe(true);
    expect(await probe.allows(free + 1, 0)).toBe(false);
    expect(await new DiskSpace(dir, Number.MAX_SAFE_INTEGER).allows(0)).toBe(false);
    // 0 turns the check off.
    expect(await new DiskSpace(dir, 0).allows(Number.MAX_SAFE_INTEGER)).toBe(true);
  });

  it('should hold the room of writes under way, so that writes judged against one reading cannot all pass', async () => {
    const free = await new DiskSpace(dir, 1).free(0);
    const bytes = Math.floor(free / 4);
    // Room for two such writes beside the minimum, not three (with a margin for other writers on this disk).
    const space = new DiskSpace(dir, free - 2.5 * bytes);
    const held = await Promise.all([0, 0, 0, 0].map(() => space.reserve(bytes, 0)));
    expect(held.filter((release) => release !== undefined)).toHaveLength(2);
    expect(await space.allows(bytes, 0)).toBe(false);
    // Let go (twice counts once): room for one more.
    held[0]?.();
    held[0]?.();
    expect(await space.reserve(bytes, 0)).toBeDefined();
    expect(await space.reserve(bytes, 0)).toBeUndefined();
    // 0 turns the check off.
    expect(await new DiskSpace(dir, 0).reserve(Number.MAX_SAFE_INTEGER)).toBeDefined();
  });

  it('should ask the file system at most once a second, and share one reading between callers', async () => {
    const space = new DiskSpace(dir, 1);
    const [a, b] = await Promise.all([space.free(1000), space.free(1000)]);
    expect(a).toBe(b);
    await rm(dir, { recursive: true, force: true });
    // Within the second: the reading is reused (the folder is gone, a new reading would say "unknown").
    expect(await space.free(1500)).toBe(a);
    // After it: read again; a folder the file system cannot answer for lets writes through.
    expect(await space.free(2000)).toBe(Number.POSITIVE_INFINITY);
    expect(await space.allows(1e15, 2000)).toBe(true);
  });
});
