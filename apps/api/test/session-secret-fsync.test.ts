import { spawnSync } from 'node:child_process';
import type * as NodeFs from 'node:fs';
import { fstatSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** What each fsync was of: a folder or a file. */
const synced: ('folder' | 'file')[] = [];
/** Whether the next write is never made: the process stops between making a file and writing it (a kill). */
let stopBeforeWrite = false;
/** Whether the file system has no hard links (FAT, exFAT, some network shares). */
let noHardLinks = false;

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const fsyncSync = (fd: number) => {
    synced.push(fstatSync(fd).isDirectory() ? 'folder' : 'file');
    fs.fsyncSync(fd);
  };
  const writeSync = ((...args: Parameters<typeof fs.writeSync>) => {
    if (stopBeforeWrite) {
      stopBeforeWrite = false;
      throw Object.assign(new Error('The process stopped here.'), { code: 'EIO' });
    }
    return fs.writeSync(...args);
  }) as typeof fs.writeSync;
  const linkSync = ((...args: Parameters<typeof fs.linkSync>) => {
    if (noHardLinks) throw Object.assign(new Error('Operation not permitted'), { code: 'EPERM' });
    fs.linkSync(...args);
  }) as typeof fs.linkSync;
  return {
    ...fs,
    default: { ...fs, fsyncSync, writeSync, linkSync },
    fsyncSync,
    writeSync,
    linkSync,
  };
});

// The suite shares modules between files (isolate: false): loaded afresh, with the mock above.
vi.resetModules();
const { loadConfig, resolveSessionSecret } = await import('../src/config.js');

afterEach(() => {
  synced.length = 0;
  stopBeforeWrite = false;
  noHardLinks = false;
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

  // Found by the thirty-first session's crash probe: the secret was made under its own name, then written, so a
  // first start killed (or a disk filled, a power cut) in between left an empty session-secret, and every later
  // start stopped on "The session secret … is too short (0 characters)" until someone deleted the file.
  it('should leave no empty secret when the first start stops before writing it, and start again', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-secret-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' });
      stopBeforeWrite = true;
      expect(() => resolveSessionSecret(config)).toThrow(/cannot be written to .* \(EIO\)/);
      expect(await readdir(dataDir)).toEqual([]);

      // What a SIGKILL there leaves: a draft of a process that is gone, deleted by the next start.
      const gone = spawnSync(process.execPath, ['-e', '0']).pid;
      const draft = `.session-secret-${gone}-0123456789ab.tmp`;
      await writeFile(path.join(dataDir, draft), '', { mode: 0o600 });
      const secret = resolveSessionSecret(config);
      expect(secret.length).toBeGreaterThanOrEqual(32);
      expect(await readdir(dataDir)).toEqual(['session-secret']);
      expect((await readFile(path.join(dataDir, 'session-secret'), 'utf8')).trim()).toBe(secret);
      expect(resolveSessionSecret(config)).toBe(secret);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });

  it('should still make the secret on a file system without hard links', async () => {
    const dataDir = await mkdtemp(path.join(tmpdir(), 'firm-secret-'));
    try {
      const config = loadConfig({ DATA_DIR: dataDir, NODE_ENV: 'test' });
      noHardLinks = true;
      const secret = resolveSessionSecret(config);
      expect(await readdir(dataDir)).toEqual(['session-secret']);
      expect((await readFile(path.join(dataDir, 'session-secret'), 'utf8')).trim()).toBe(secret);
      expect(resolveSessionSecret(config)).toBe(secret);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
