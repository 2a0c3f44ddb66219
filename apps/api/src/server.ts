import closeWithGrace from 'close-with-grace';
import Fastify from 'fastify';
import app, { serverOptions } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';

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
  logger: { level: config.logLevel },
});

closeWithGrace({ delay: 10_000 }, async ({ err, signal }) => {
  if (err !== undefined) server.log.error({ err }, 'Shutting down after an error');
  else server.log.info({ signal }, 'Shutting down');
  await server.close();
});

try {
  await server.register(app, { config, startWorkers: true });
  await server.listen({ port: config.port, host: config.host });
  server.log.info(`Portal at ${config.publicUrl.href}`);
} catch (error) {
  server.log.error({ err: error }, 'The server could not start');
  process.exit(1);
}
