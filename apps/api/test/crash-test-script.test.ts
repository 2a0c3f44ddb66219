import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The API's folder, and the crash test run from source (as `pnpm crash-test` does). */
const API_DIR = path.join(import.meta.dirname, '..');
const CRASH_TEST = ['--import', 'tsx/esm', path.join(API_DIR, 'scripts', 'crash-test.ts')];

// Found by the twenty-fifth session's PostgreSQL probe: with DATABASE_URL set, the server it started ran on PostgreSQL
// while its checks read portal.sqlite, and the run ended in "SqliteError: no such table: outbox", leaving its
// /tmp/firm-crash-* folder behind.
describe('the crash test', () => {
  it('should refuse to run with DATABASE_URL set, in one line, before making anything', async () => {
    // Its own temporary folder, to see that nothing is made there.
    const tmp = await mkdtemp(path.join(tmpdir(), 'firm-crash-script-'));
    try {
      const result = spawnSync(
        process.execPath,
        [...CRASH_TEST, '--kills', '1', '--clients', '1'],
        {
          cwd: API_DIR,
          // Port 1 on this machine: nothing listens there, so a server started anyway stops at once.
          env: {
            ...process.env,
            TMPDIR: tmp,
            DATABASE_URL: 'postgres://firm:firm@127.0.0.1:1/firm',
          },
          encoding: 'utf8',
          timeout: 60_000,
        },
      );
      expect({ status: result.status, stderr: result.stderr, stdout: result.stdout }).toEqual({
        status: 2,
        stderr: 'The crash test checks SQLite in DATA_DIR: unset DATABASE_URL.\n',
        stdout: '',
      });
      // tsx keeps its cache there (tsx-0): only the crash test's own DATA_DIR is looked for.
      expect((await readdir(tmp)).filter((name) => name.startsWith('firm-crash-'))).toEqual([]);
    } finally {
      await rm(tmp, { recursive: true, force: true });
    }
  });
});
