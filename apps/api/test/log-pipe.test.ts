import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const API_DIR = path.join(import.meta.dirname, '..');

/** Ends a process and every process under it (the shell, the writer, the reader that never reads). */
function killTree(pid: number): void {
  const { stdout } = spawnSync('ps', ['-o', 'pid=', '--ppid', String(pid)], { encoding: 'utf8' });
  for (const child of stdout.split('\n').map(Number).filter(Boolean)) killTree(child);
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

// Found by the twentieth session's fault probe: with the log piped to a reader that stopped (`| cat` with cat
// stopped, a FIFO), a write blocked for good, and with it every request and SIGTERM.
describe('the log on a pipe whose reader has stopped', () => {
  it('should drop lines rather than wait for the reader for ever', async () => {
    // 4 MB of log lines into a pipe (64 KB) read by a process that never reads it.
    const writer = `
      import { nonBlockingWhenPipe, stdoutDestination } from './src/log-options.ts';
      const log = stdoutDestination(nonBlockingWhenPipe(1), 2);
      // Modules still load after it (a plain fstat of a pipe left Node 20's loader unable to resolve them).
      const { default: Fastify } = await import('fastify');
      await Fastify().ready();
      const line = JSON.stringify({ msg: 'x'.repeat(200) }) + '\\n';
      for (let i = 0; i < 20000; i += 1) log.write(line);
      process.stderr.write('all written\\n');
      process.exit(0);
    `;
    const child = spawn(
      'sh',
      ['-c', `"${process.execPath}" --import tsx/esm --input-type=module -e "$WRITER" | sleep 60`],
      {
        cwd: API_DIR,
        env: { ...process.env, WRITER: writer },
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const deadline = Date.now() + 30_000;
      while (!stderr.includes('all written') && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(stderr).toContain('The log cannot be written to standard output (EAGAIN)');
      expect(stderr).toContain('all written');
    } finally {
      if (child.pid !== undefined) killTree(child.pid);
    }
  }, 60_000);
});
