import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { vi } from 'vitest';
import type * as Fsync from '../src/services/fsync.js';

const FSYNC_MODULE = fileURLToPath(new URL('../src/services/fsync.js', import.meta.url));

/** What `recordFsyncs` gives: the names fsync-ed, and how to put the real module back. */
export interface FsyncRecorder {
  /** The base names of the folders and files fsync-ed, in order; empty it between steps. */
  synced: string[];
  /** Unmocks `fsyncPath` and resets the modules (in `afterAll`). */
  stop: () => void;
}

/**
 * Notes every `fsyncPath` (which still fsyncs) by base name, for the modules imported after this call: test files
 * share modules, so the modules are reset and the caller imports a fresh copy of the one under test.
 *
 * @example const fsyncs = recordFsyncs(); const { storeUpload } = await import('../../src/services/uploads.js');
 */
export function recordFsyncs(): FsyncRecorder {
  const synced: string[] = [];
  vi.doMock(FSYNC_MODULE, async (importOriginal) => {
    const actual = await importOriginal<typeof Fsync>();
    return {
      fsyncPath: async (file: string) => {
        await actual.fsyncPath(file);
        synced.push(path.basename(file));
      },
    };
  });
  vi.resetModules();
  return {
    synced,
    stop: () => {
      vi.doUnmock(FSYNC_MODULE);
      vi.resetModules();
    },
  };
}
