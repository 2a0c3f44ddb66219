import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/** Query parameters whose values are secrets: a login link's token works for 15 minutes for whoever holds it. */
const SECRET_PARAMETERS = new Set(['token']);

function decodedName(name: string): string {
  try {
    return decodeURIComponent(name.replace(/\+/g, ' ')).toLowerCase();
  } catch {
    return name.toLowerCase();
  }
}

/**
 * A request target as the log shows it: the value of every secret query parameter replaced by `[redacted]`
 * (whatever the case or percent-encoding of its name), everything else as sent. Anyone who can read the logs must
 * not be able to log in with a link someone else has not used yet.
 */
export function loggedUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const query = url
    .slice(start + 1)
    .split('&')
    .map((part) => {
      const equals = part.indexOf('=');
      const name = equals < 0 ? part : part.slice(0, equals);
      return SECRET_PARAMETERS.has(decodedName(name)) ? `${name}=[redacted]` : part;
    })
    .join('&');
  return `${url.slice(0, start + 1)}${query}`;
}

/** The server's logger: Fastify’s own request fields (as its default serializer, without accept-version), the URL through {@link loggedUrl}. */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream === undefined ? {} : { stream }),
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: loggedUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
  };
}
