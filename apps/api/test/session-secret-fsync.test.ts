import type * as NodeFs from 'node:fs';
import { fstatSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** What each fsync was of: a folder or a file. */
const synced: ('folder' | 'file')[] = [];

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const fsyncSync = (fd: number) => {
    synced.push(fstatSync(fd).isDirectory() ? 'folder' : 'file');
    fs.fsyncSync(fd);
  };
  return { ...fs, default: { ...fs, fsyncSync }, fsyncSync };
});

// The suite shares modules between files (isolate: false): loaded afresh, with the mock above.
vi.resetModules();
const { loadConfig, resolveSessionSecret } = await import('../src/config.js');

afterEach(() => {
  synced.length = 0;
});

describe('resolveSessionSecret', () => {
  // Left alone by the eighteenth session's fault probe: the new secret's content was fsynced, its name in the
  // folder was not, so a power cut could lose the file while sessions signed with it had been handed out.
  it('should fsync a new secret and then the folder that names it', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-secret-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' });
      resolveSessionSecret(config);
      expect(synced).toEqual(['file', 'folder']);

      // A kept secret is read, not written again.
      synced.length = 0;
      resolveSessionSecret(config);
      expect(synced).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
