/**
 * The server's entry. Its first line puts signal handlers in place before the rest of the server loads (see
 * early-signals.ts); `serve.ts` starts the server and takes them away once its own are in place.
 */
import { holdEarlySignals } from './early-signals.js';

holdEarlySignals();
try {
  await import('./serve.js');
} catch (error) {
  // Loading the server opens many files at once (its modules, the database driver): under a low open-file limit
  // it failed with a stack (found by the twentieth session's fault probe). One line, as for a bad setting.
  const code = (error as { code?: unknown } | null)?.code;
  if (code !== 'EMFILE' && code !== 'ENFILE') throw error;
  console.error(
    `The server could not start: ${code === 'EMFILE' ? 'this process' : 'the system'} may open no more files ` +
      `(${code}). Raise the open-file limit (ulimit -n, or LimitNOFILE= in a systemd unit) to 1024 or more.`,
  );
  process.exit(1);
}
