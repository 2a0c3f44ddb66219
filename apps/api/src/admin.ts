import { runAdmin, stdoutProblem } from './cli/admin-cli.js';
import { keepFilesPrivate } from './private-files.js';

keepFilesPrivate();

// A failed write to the standard output (a closed pipe, a full disk) is an 'error' event on the stream: without a
// listener it ended the tool with a stack. It is kept, said in one line once the command has run, and the exit code
// is 1: an export cut short must not look done. Nothing can be said about a failed standard error.
let outputError: NodeJS.ErrnoException | undefined;
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  outputError ??= error;
});
process.stderr.on('error', () => undefined);

const code = await runAdmin(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => {
    if (outputError === undefined) process.stdout.write(text);
  },
  stderr: (text) => process.stderr.write(text),
});
// The write's own callback comes after its error (if any) was emitted.
await new Promise<void>((resolve) => process.stdout.write('', () => resolve()));
if (outputError !== undefined) {
  process.stderr.write(`${stdoutProblem(outputError)}\n`);
  process.exitCode = 1;
} else {
  process.exitCode = code;
}
