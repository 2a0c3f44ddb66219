import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLAIMANT, claimantGone, THIS_PROCESS } from '../../src/services/process-mark.js';

describe('claimantGone', () => {
  it('knows gone only a process of this host that has ended, or an earlier run of this pid', async () => {
    const child = spawn(process.execPath, ['-e', '']);
    const gonePid = child.pid as number;
    await new Promise((resolve) => child.once('exit', resolve));
    const { host, pid, run } = THIS_PROCESS;
    const otherRun = run === '00000000' ? '11111111' : '00000000';
    expect(CLAIMANT).toBe(`${host}/${pid}/${run}`);
    expect(claimantGone(CLAIMANT)).toBe(false);
    expect(claimantGone(`${host}/${pid}/${otherRun}`)).toBe(true);
    expect(claimantGone(`${host}/${gonePid}/${run}`)).toBe(true);
    // Alive: the test's parent process; another host's is never known gone; nor is a mark that cannot be read.
    expect(claimantGone(`${host}/${process.ppid}/${otherRun}`)).toBe(false);
    expect(claimantGone(`${host}x/${gonePid}/${run}`)).toBe(false);
    for (const mark of [
      '',
      'gone',
      `${host}/${gonePid}`,
      `${host}/0/${run}`,
      `${host}/-1/${run}`,
    ]) {
      expect(claimantGone(mark), mark).toBe(false);
    }
    expect(claimantGone(`${host}/99999999999/${run}`)).toBe(false);
  });
});
