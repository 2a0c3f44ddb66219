/** Starts the server (loaded by the entry, server.ts, once it holds the early signals). */
import closeWithGrace from 'close-with-grace';
import Fastify from 'fastify';
import app, { SHUTDOWN_GRACE_MS, serverOptions } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { releaseEarlySignals } from './early-signals.js';
import { postgresProblem } from './db/unavailable.js';
import { loggerOptions, nonBlockingWhenPipe, stdoutDestination } from './log-options.js';
import { keepFilesPrivate } from './private-files.js';
import { ContentError } from './services/content-import.js';
import { shownText } from './services/shown-text.js';
import { StorageError } from './storage-error.js';

keepFilesPrivate();

/** Why the server could not listen, by the system's error code. */
const LISTEN_PROBLEMS: Record<string, ((address: string) => string) | undefined> = {
  EADDRINUSE: (address) => `another program is already listening on ${address}.`,
  EADDRNOTAVAIL: (address) => `${address} is not an address of this machine.`,
  ENOTFOUND: (address) => `the host name in ${address} cannot be resolved.`,
  EACCES: (address) => `this user may not listen on ${address} (ports below 1024 need rights).`,
  // Found by the eighteenth session's fault probe (a JSON line with a stack): an IPv6 address with a zone this
  // machine does not have, or IPv6 where the system has none.
  EINVAL: (address) =>
    `${address} cannot be listened on here (an unknown network interface after "%"?).`,
  EAFNOSUPPORT: (address) =>
    `this machine does not support the kind of address ${address} is (IPv6?).`,
};

let config: Config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) {
    console.error(error.message);
    process.exit(1);
  }
  throw error;
}

const server = Fastify({
  ...serverOptions(config),
  logger: loggerOptions(config.logLevel, stdoutDestination(nonBlockingWhenPipe(1))),
});

let shuttingDown = false;
// SIGHUP (a terminal closing, logrotate's `kill -HUP`) used to shut the server down with exit code 0, which a
// supervisor restarting only on failure leaves down (found by the seventeenth session's fault probe). The log goes
// to stdout, so there is nothing to reopen: it is noted and ignored. SIGINT and SIGTERM stop it gracefully.
process.on('SIGHUP', () =>
  server.log.info('SIGHUP received and ignored (stop with SIGTERM or SIGINT)'),
);
let listening = false;
/** Whether the start got as far as listening: an error before it is not the address's (ENOTFOUND…). */
let listenBegun = false;
// close-with-grace would also take the signals of a crash for a request to shut down: V8 ends on a fatal error (an
// answer too large to build, say) with an instruction that raises SIGILL or SIGTRAP, and a handler that returns runs
// it again, so the process spun at 100% CPU for ever, answering nobody and deaf to SIGTERM (found by the
// twenty-third session's staff-tool probe). They keep their default: the process ends, for its supervisor to restart.
const CRASH_SIGNALS = ['SIGILL', 'SIGTRAP', 'SIGABRT', 'SIGBUS', 'SIGFPE', 'SIGSEGV'] as const;
closeWithGrace(
  { delay: SHUTDOWN_GRACE_MS, skip: ['SIGHUP', ...CRASH_SIGNALS] },
  async ({ err, signal }) => {
    shuttingDown = true;
    if (err !== undefined) server.log.error({ err }, 'Shutting down after an error');
    else server.log.info({ signal }, 'Shutting down');
    // A signal before the server listens (waiting up to a minute for another process's lock, migrating, seeding):
    // nothing has been acknowledged to anyone, and every step of the start is safe to stop at any moment (a kill
    // there is tested), so it stops now. Waiting for the start to end outlasted the grace period, and the process
    // was ended by force with exit code 1 (found by the eighteenth session's fault probe).
    if (!listening && signal !== undefined) process.exit(0);
    await server.close();
  },
);
releaseEarlySignals();

try {
  await server.register(app, { config, startWorkers: true });
  await server.ready();
  // Signals before listening end the process in the handler above, so a shutdown begun during the start was begun
  // by an uncaught error: the handler closes the server and close-with-grace exits with code 1. This line used to
  // exit with code 0 here, which a supervisor restarting only on failure would leave down.
  if (!shuttingDown) {
    listenBegun = true;
    await server.listen({ port: config.port, host: config.host });
    listening = true;
    server.log.info(`Portal at ${config.publicUrl.href}`);
  }
} catch (error) {
  // Storage or a database the operator must fix: one plain line, as for a bad setting (never the URL's password).
  // Anything else: the log, with its stack.
  const { code, syscall } = error as { code?: string; syscall?: string };
  const listenProblem =
    listenBegun && ['listen', 'bind', 'getaddrinfo'].includes(syscall ?? '')
      ? LISTEN_PROBLEMS[code ?? '']
      : undefined;
  // PostgreSQL out of reach, or refusing the login, the database or SSL. Found by the twenty-fifth session's
  // PostgreSQL probe: only an unreachable server had its plain line; a wrong password or database name printed a
  // JSON log line with a stack ("Database migration  failed: …"), and a database host name that does not resolve
  // (with DATABASE_SCHEMA) was blamed on HOST and PORT.
  const databaseProblem =
    config.databaseUrl === null || listenBegun
      ? undefined
      : postgresProblem(config.databaseUrl, error);
  if (error instanceof StorageError) console.error(`The server could not start: ${error.message}`);
  else if (error instanceof ContentError) {
    // The first start's demo content (CONTENT_DIR) would not import: one plain line naming the folder and the file,
    // as for storage (found by the twenty-fourth session's fault probe: a JSON log line with a stack).
    console.error(
      `The server could not start: ${shownText(error.message, 4_000)} Mend the folder, or set CONTENT_DIR to ` +
        'another (the first start imports every client folder there).',
    );
  } else if (listenProblem !== undefined) {
    // A setting the operator must change (found by the seventeenth session's fault probe: a JSON line with a
    // stack): one plain line naming the address.
    console.error(
      `The server could not start: ${listenProblem(`${config.host}:${config.port}`)} Set HOST and PORT to an ` +
        'address of this machine that is free.',
    );
  } else if (databaseProblem !== undefined) {
    console.error(`The server could not start: ${databaseProblem}`);
  } else server.log.error({ err: error }, 'The server could not start');
  process.exit(1);
}
