import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';

/**
 * This machine's name as it is written into the names of temporary files (partial media copies, partial uploads),
 * so that a later start on the same host can tell the files of a process that is gone from another host's.
 */
export const HOST_MARK =
  hostname()
    .replace(/[^A-Za-z0-9]/g, '_')
    .slice(0, 60) || 'host';

/** Whether process `pid` of this host has ended (one that exists but is not ours to signal is alive). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * This process, as it marks what it leaves behind while it works (partial uploads, claimed outbox rows): this
 * machine, this process, and this run of it (a pid comes round again, and in a container every start is pid 1).
 */
export const THIS_PROCESS = {
  host: HOST_MARK,
  pid: process.pid,
  run: randomBytes(4).toString('hex'),
} as const;

/**
 * Whether the process that wrote a mark of `host`, `pid` and `run` is known to be gone: a process of this host that
 * has ended, or an earlier run of this very pid (restarted in a container). Another host's is never known gone.
 */
export function writerGone(host: string, pid: number, run: string): boolean {
  if (host !== THIS_PROCESS.host || !Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === THIS_PROCESS.pid) return run !== THIS_PROCESS.run;
  return processGone(pid);
}

/** A claim's mark of this process (`host/pid/run`), as the outbox stores it in `claimed_by`. */
export const CLAIMANT = `${THIS_PROCESS.host}/${THIS_PROCESS.pid}/${THIS_PROCESS.run}`;

const CLAIMANT_MARK = /^([A-Za-z0-9_]{1,60})\/(\d{1,10})\/([0-9a-f]{8})$/;

/** Whether the process a `claimed_by` mark names is known to be gone (`writerGone`); an unreadable mark is not. */
export function claimantGone(mark: string): boolean {
  const [, host, pid, run] = CLAIMANT_MARK.exec(mark) ?? [];
  return host !== undefined && writerGone(host, Number(pid), run ?? '');
}
