import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/connect.js';

// Found by the seventeenth session's fault probe: the staff tool's output to a closed pipe or a full disk ended in an
// unhandled 'error' event's stack (and an export cut short could exit 0).
const API_DIR = path.join(import.meta.dirname, '..', '..');
const ADMIN_ARGS = ['--import', 'tsx/esm', path.join(API_DIR, 'src', 'admin.ts')];

interface Outcome {
  code: number | null;
  stderr: string;
}

function runAdmin(
  args: string[],
  dataDir: string,
  stdout: 'pipe-closed' | number,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...ADMIN_ARGS, ...args], {
      cwd: API_DIR,
      env: { ...process.env, DATA_DIR: dataDir },
      stdio: ['ignore', stdout === 'pipe-closed' ? 'pipe' : stdout, 'pipe'],
    });
    // The reading end is closed before the tool has started: its first write finds no reader (EPIPE).
    if (stdout === 'pipe-closed') child.stdout?.destroy();
    let stderr = '';
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('the staff tool’s standard output', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await mkdtemp(path.join(tmpdir(), 'firm-admin-out-'));
    // A portal's database (the staff tool's reads refuse a DATA_DIR without one).
    await (await openDatabase({ dataDir, databaseUrl: null, databaseSchema: null })).close();
  });
  afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  it('should say in one line, with exit code 1, that the reader of its output stopped reading', async () => {
    const outcome = await runAdmin(['client', 'list'], dataDir, 'pipe-closed');
    expect(outcome).toEqual({
      code: 1,
      stderr: 'The output was cut short: the program reading it stopped reading (EPIPE).\n',
    });
  }, 60_000);

  it('should say in one line, with exit code 1, that its output could not be written to a full disk', async () => {
    const full = openSync('/dev/full', 'w');
    try {
      const outcome = await runAdmin(['client', 'list'], dataDir, full);
      expect(outcome).toEqual({
        code: 1,
        stderr: 'The output could not be written: the disk is full (ENOSPC).\n',
      });
    } finally {
      closeSync(full);
    }
  }, 60_000);
});
