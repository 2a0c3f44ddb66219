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
