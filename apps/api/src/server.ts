import closeWithGrace from 'close-with-grace';
import Fastify from 'fastify';
import app, { SHUTDOWN_GRACE_MS, serverOptions } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { isDatabaseUnavailable } from './db/unavailable.js';
import { loggerOptions } from './log-options.js';
import { keepFilesPrivate } from './private-files.js';
import { StorageError } from './storage-error.js';

keepFilesPrivate();

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
  logger: loggerOptions(config.logLevel),
});

let shuttingDown = false;
closeWithGrace({ delay: SHUTDOWN_GRACE_MS }, async ({ err, signal }) => {
  shuttingDown = true;
  if (err !== undefined) server.log.error({ err }, 'Shutting down after an error');
  else server.log.info({ signal }, 'Shutting down');
  await server.close();
});

try {
  await server.register(app, { config, startWorkers: true });
  await server.ready();
  // A signal during start-up (migrations, first-start seeding): stop instead of starting to listen.
  if (shuttingDown) process.exit(0);
  await server.listen({ port: config.port, host: config.host });
  server.log.info(`Portal at ${config.publicUrl.href}`);
} catch (error) {
  // Storage or a database the operator must fix: one plain line, as for a bad setting (never the URL's password).
  // Anything else: the log, with its stack.
  if (error instanceof StorageError) console.error(`The server could not start: ${error.message}`);
  else if (config.databaseUrl !== null && isDatabaseUnavailable(error)) {
    console.error(
      `The server could not start: the PostgreSQL server at ${databaseHost(config.databaseUrl)} cannot be ` +
        'reached or is not answering. DATABASE_URL must name a running PostgreSQL server this machine can reach.',
    );
  } else server.log.error({ err: error }, 'The server could not start');
  process.exit(1);
}

/** Host and port of a database URL, without the user or password it may hold. */
function databaseHost(url: string): string {
  try {
    const { hostname, port } = new URL(url);
    return `${hostname}:${port === '' ? '5432' : port}`;
  } catch {
    return 'DATABASE_URL';
  }
}
