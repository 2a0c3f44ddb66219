#!/usr/bin/env node
import { once } from 'node:events';
import process from 'node:process';
import { EXIT_FAILURE, run } from './run';

// A closed pipe (`firm-pricing sweep ... | head`) is a normal way to stop reading: exit quietly.
// Any other failed write (a full disk) is said in one line, not as a stack trace.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  process.stderr.write(`firm-pricing: cannot write the output: ${error.message}\n`);
  process.exit(EXIT_FAILURE);
});
// Nobody reading the messages (stderr closed) does not fail a run: the exit status still tells.
process.stderr.on('error', () => undefined);

run(process.argv.slice(2), {
  async write(text) {
    if (!process.stdout.write(text)) await once(process.stdout, 'drain');
  },
  error(text) {
    process.stderr.write(`${text}\n`);
  },
}).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`firm-pricing: unexpected failure: ${String(error)}\n`);
    process.exitCode = EXIT_FAILURE;
  },
);
