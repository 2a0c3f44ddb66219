/**
 * Signals while the server's modules load. Loading them takes a second or two (Fastify, the database drivers, the
 * sanitiser), and until the server's own handlers are in place a signal had its default effect: a SIGHUP
 * (logrotate's `kill -HUP`, a closed terminal) ended the process with code 129 where later it is ignored, and a
 * SIGTERM or SIGINT ended it by the signal where later it exits with code 0 (left alone by the nineteenth session).
 * The entry holds them from its first line: SIGHUP is ignored, SIGTERM and SIGINT stop the start at once with code
 * 0, as they do later before the server listens (nothing has been opened or acknowledged yet).
 */

const stop = (): never => process.exit(0);
const ignore = (): void => undefined;

/** Puts the early handlers in place. */
export function holdEarlySignals(): void {
  process.on('SIGHUP', ignore);
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** Takes the early handlers away, once the server's own are in place. */
export function releaseEarlySignals(): void {
  process.off('SIGHUP', ignore);
  process.off('SIGINT', stop);
  process.off('SIGTERM', stop);
}
