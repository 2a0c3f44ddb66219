import type * as NodeFs from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** What the fake file holds, and how many more bytes it takes before it is full (`Infinity`: room for all). */
const file = { text: '', room: Infinity, errors: '', full: false };

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof NodeFs>();
  const writeSync = (fd: number, data: Buffer | string, offset = 0) => {
    if (fd === 2) {
      file.errors += String(data);
      return String(data).length;
    }
    const bytes = (typeof data === 'string' ? Buffer.from(data) : data).subarray(offset);
    // A pipe whose reader has stopped, opened without blocking.
    if (file.full) throw Object.assign(new Error('EAGAIN'), { code: 'EAGAIN' });
    if (file.room === 0) throw Object.assign(new Error('ENOSPC'), { code: 'ENOSPC' });
    const taken = bytes.subarray(0, Math.min(bytes.length, file.room));
    file.room -= taken.length;
    file.text += taken.toString('utf8');
    return taken.length;
  };
  return { ...fs, default: { ...fs, writeSync }, writeSync };
});

// The suite shares modules between files (isolate: false): loaded afresh, with the mock above.
vi.resetModules();
const { stdoutDestination } = await import('../src/log-options.js');

afterEach(() => {
  Object.assign(file, { text: '', room: Infinity, errors: '', full: false });
});

describe('stdoutDestination', () => {
  // Found by the nineteenth session's fault probe: a line cut short by a full disk was followed, once there was
  // room again, by the next line on the same line: neither read as JSON.
  it('should start the line after one cut short by a full disk on a line of its own', () => {
    const log = stdoutDestination(1, 2);
    log.write('{"msg":"first"}\n');
    file.room = 8;
    log.write('{"msg":"cut short"}\n');
    log.write('{"msg":"dropped"}\n');
    file.room = Infinity;
    log.write('{"msg":"after"}\n');
    log.write('{"msg":"next"}\n');
    expect(file.text.split('\n')).toEqual([
      '{"msg":"first"}',
      '{"msg":"',
      '{"msg":"after"}',
      '{"msg":"next"}',
      '',
    ]);
    expect(file.errors.match(/The log cannot be written/g)).toHaveLength(1);
  });

  // Found by the twentieth session's fault probe: with its reader stopped, every line waited its second for the
  // pipe, so the server answered about one request a second.
  it('should wait for a full pipe once, then drop lines at once until one gets through', () => {
    const log = stdoutDestination(1, 2);
    file.full = true;
    let started = Date.now();
    log.write('{"msg":"waited for"}\n');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    started = Date.now();
    for (let i = 0; i < 50; i += 1) log.write('{"msg":"dropped"}\n');
    expect(Date.now() - started).toBeLessThan(500);
    file.full = false;
    log.write('{"msg":"through"}\n');
    expect(file.text).toBe('{"msg":"through"}\n');
    expect(file.errors.match(/The log cannot be written/g)).toHaveLength(1);
  });

  it('should write every line as it is while there is room', () => {
    const log = stdoutDestination(1, 2);
    log.write('{"a":1}\n');
    log.write('{"b":"é"}\n');
    expect(file.text).toBe('{"a":1}\n{"b":"é"}\n');
    expect(file.errors).toBe('');
  });
});
