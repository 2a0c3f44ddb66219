import { describe, expect, it } from 'vitest';
import { OneAtATime } from '../../src/services/one-at-a-time.js';

/** A task that runs until released. */
function held() {
  let release: () => void = () => undefined;
  let fail: (error: Error) => void = () => undefined;
  const finished = new Promise<void>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const started: string[] = [];
  return { finished, release, fail, started };
}

describe('OneAtATime', () => {
  it('should start a task offered while none runs, and refuse, not queue, one offered meanwhile', async () => {
    const gate = new OneAtATime();
    const first = held();
    const ran: string[] = [];
    expect(
      gate.offer(() => {
        ran.push('first');
        return first.finished;
      }),
    ).toBe(true);
    // Its synchronous start has run already.
    expect(ran).toEqual(['first']);
    expect(gate.running).toBe(true);
    expect(
      gate.offer(async () => {
        ran.push('second');
      }),
    ).toBe(false);
    first.release();
    await first.finished;
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.running).toBe(false);
    expect(ran).toEqual(['first']);
    // Offered again, once the first has ended, it runs.
    expect(
      gate.offer(async () => {
        ran.push('second');
      }),
    ).toBe(true);
    expect(ran).toEqual(['first', 'second']);
  });

  it('should end a task that fails or throws as one that succeeds', async () => {
    const gate = new OneAtATime();
    const failing = held();
    gate.offer(() => failing.finished);
    failing.fail(new Error('no'));
    await failing.finished.catch(() => undefined);
    await new Promise((resolve) => setImmediate(resolve));
    expect(gate.running).toBe(false);
    expect(
      gate.offer(() => {
        throw new Error('at once');
      }),
    ).toBe(true);
    expect(gate.running).toBe(false);
  });
});
