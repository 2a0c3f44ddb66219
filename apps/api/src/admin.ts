import { runAdmin } from './cli/admin-cli.js';
import { keepFilesPrivate } from './private-files.js';

keepFilesPrivate();

const code = await runAdmin(process.argv.slice(2), {
  env: process.env,
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});
process.exitCode = code;
