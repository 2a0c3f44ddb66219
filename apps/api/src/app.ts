import type { FastifyError, FastifyInstance, FastifyReply, FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Clock } from './clock.js';
import { systemClock } from './clock.js';
import type { Config } from './config.js';
import crossSite from './plugins/app/cross-site.js';
import services from './plugins/app/services.js';
import session from './plugins/app/session.js';
import staticFiles from './plugins/app/static.js';
import bodyParsers from './plugins/external/body-parsers.js';
import cookie from './plugins/external/cookie.js';
import openapi from './plugins/external/openapi.js';
import security from './plugins/external/security.js';
import activityRoutes from './routes/api/activity.js';
import clientRoutes from './routes/api/client.js';
import contentRoutes from './routes/api/content.js';
import dueDiligenceRoutes from './routes/api/due-diligence.js';
import loginRoutes from './routes/api/login.js';
import submissionRoutes from './routes/api/submissions.js';
import { encodePage, renderPortalPage, type PortalShell } from './services/portal-page.js';
import { HttpError } from './types.js';

export interface AppOptions {
  config: Config;
  /** The time source; tests inject one to expire tokens and sessions without sleeping. */
  clock?: Clock;
  /** Start the outbox polling loop and the hourly purge (the server does; tests drive them). */
  startWorkers?: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The portal's built index.html and page preloads, when PORTAL_DIST has them (plugins/app/static.ts). */
    portalShell?: () => Promise<PortalShell>;
  }
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Validation errors as one plain sentence naming the field. */
export function formatSchemaError(errors: AjvError[], dataVar: string): Error {
  const error = errors[0];
  const noun = dataVar === 'querystring' ? 'query parameter' : 'field';
  let message = 'Invalid request.';
  if (error !== undefined) {
    const where = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (error.keyword === 'additionalProperties') {
      message = `Unknown ${noun} "${String(error.params.additionalProperty)}".`;
    } else if (error.keyword === 'required') {
      message = `Missing required ${noun} "${String(error.params.missingProperty)}".`;
    } else if (error.keyword === 'pattern' && where !== '') {
      message = `Invalid ${noun} "${where}": it must not be blank and must be well formed.`;
    } else if (where !== '') {
      message = `Invalid ${noun} "${where}": ${error.message ?? 'bad value'}.`;
    } else {
      message = `Invalid ${dataVar}: ${error.message ?? 'bad value'}.`;
    }
  }
  return Object.assign(new Error(message), { statusCode: 400 });
}

/** The path of the first string (key or value) holding a NUL character, or `undefined`. */
function findNul(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || '(body)' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const here = path === '' ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return here;
    const found = findNul(inner, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Fastify's own options for this app (the server and the tests use the same). */
export function serverOptions(config: Config): FastifyServerOptions {
  return {
    trustProxy: config.trustProxy,
    bodyLimit: 64 * 1024,
    ajv: {
      customOptions: {
        removeAdditional: false,
        coerceTypes: false,
        useDefaults: true,
        allErrors: false,
        allowUnionTypes: true,
      },
    },
    schemaErrorFormatter: (errors, dataVar) => formatSchemaError(errors as AjvError[], dataVar),
    routerOptions: { ignoreTrailingSlash: true },
    // Errors raised before routing (a path with bad percent-encoding) keep the `{ error }` contract.
    frameworkErrors: (error, request, rawReply) => {
      const reply = rawReply as FastifyReply;
      const status =
        typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500
          ? error.statusCode
          : 400;
      request.log.info({ err: error }, 'Request refused by the router');
      void reply
        .code(status)
        .type('application/json; charset=utf-8')
        .send({
          error:
            status === 414
              ? 'The address is too long.'
              : 'Bad request: the address is not well formed.',
        });
    },
  };
}

/** The whole app as a plugin: infrastructure, services, routes, error handling. */
async function app(fastify: FastifyInstance, opts: AppOptions): Promise<void> {
  await fastify.register(
    fp(
      (instance: FastifyInstance) => {
        instance.decorate('config', opts.config);
        instance.decorate('clock', opts.clock ?? systemClock);
      },
      { name: 'config' },
    ),
  );

  // Every route pattern, to tell "wrong method" (405) from "no such path" (404).
  const routes: { pattern: RegExp; methods: string[] }[] = [];
  fastify.addHook('onRoute', (route) => {
    if (route.url.includes('*')) return;
    const pattern = new RegExp(`^${route.url.replace(/:[^/]+/g, '[^/]+')}/?$`);
    const methods = [route.method].flat();
    routes.push({ pattern, methods });
  });

  // Text with NUL characters is refused before it reaches a handler (PostgreSQL cannot store it).
  // Hooks with callbacks rather than async functions: they run on every request and never wait for anything.
  fastify.addHook('preValidation', (request, _reply, done) => {
    for (const [where, value] of [
      ['query parameter', request.query],
      ['field', request.body],
    ] as const) {
      const bad = findNul(value, '');
      if (bad !== undefined) {
        done(new HttpError(400, `Invalid ${where} "${bad}": it contains a NUL character.`));
        return;
      }
    }
    done();
  });

  // API answers carry personal data: no shared or browser cache keeps them.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
      void reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });

  // Set before any plugin adds routes: a route keeps the error handler in force when it was added.
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    const status =
      typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    const context = { method: request.method, url: request.url, status };
    if (status >= 500) {
      request.log.error({ err: error, request: context }, 'Request failed');
    } else {
      request.log.info({ err: error, request: context }, 'Request refused');
    }
    return (
      reply
        .code(status)
        .type('application/json; charset=utf-8')
        // Not the route's response schema: some routes' error pages are HTML strings (the login link).
        .serializer(JSON.stringify)
        .send({ error: status >= 500 ? 'Internal server error' : error.message })
    );
  });

  await fastify.register(security);
  await fastify.register(cookie);
  await fastify.register(bodyParsers);
  await fastify.register(services, { startWorkers: opts.startWorkers ?? false });
  await fastify.register(session);
  await fastify.register(crossSite);
  await fastify.register(openapi);

  // Synchronous on purpose: returning the reply from an async handler makes Fastify await it as a thenable.
  fastify.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0] ?? '/';
    const isApi = url === '/api' || url.startsWith('/api/');
    if (isApi) {
      const allowed = [
        ...new Set(routes.filter((r) => r.pattern.test(url)).flatMap((r) => r.methods)),
      ];
      if (allowed.length > 0) {
        void reply
          .code(405)
          .header('allow', allowed.join(', '))
          .send({ error: `Method ${request.method} is not allowed here.` });
        return;
      }
      void reply.code(404).send({ error: 'Not found.' });
      return;
    }
    const first = url.split('/')[1] ?? '';
    const shell = fastify.portalShell;
    if (
      (request.method === 'GET' || request.method === 'HEAD') &&
      shell !== undefined &&
      !['media', 'assets'].includes(first) &&
      /^[a-z0-9][a-z0-9-]{0,39}$/.test(first)
    ) {
      // The page carries its first answers (who is logged in, the page's data): personal, so never stored.
      shell()
        .then((loaded) =>
          renderPortalPage(fastify, loaded, { url: request.url, cookie: request.headers.cookie }),
        )
        .then((html) => encodePage(html, request.headers['accept-encoding']))
        .then(({ body, encoding }) => {
          if (encoding !== undefined) void reply.header('content-encoding', encoding);
          return reply
            .code(200)
            .header('cache-control', 'no-store')
            .header('vary', 'Accept-Encoding')
            .type('text/html; charset=utf-8')
            .send(body);
        })
        .catch((error: unknown) => reply.send(error));
      return;
    }
    void reply.code(404).send({ error: 'Not found.' });
  });

  // A JSON API: text/plain bodies (what a cross-site "simple" form can send) are not accepted at all.
  fastify.removeContentTypeParser('text/plain');
  fastify.get('/', { schema: { hide: true } }, (_request, reply) =>
    reply.redirect(`/${fastify.config.defaultClient}/login`, 302),
  );

  await fastify.register(clientRoutes);
  await fastify.register(loginRoutes);
  await fastify.register(contentRoutes);
  await fastify.register(activityRoutes);
  await fastify.register(submissionRoutes);
  await fastify.register(dueDiligenceRoutes);
  await fastify.register(staticFiles);
}

export default fp(app, { name: 'portal-api' });
