import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PREFIX } from '../../services/content-import.js';
import { SESSION_ABSOLUTE_MS, findClientSession } from '../../repositories/sessions.js';
import { sharedCheckOf } from '../../services/arrival-turn.js';
import { HttpError, type SessionCookieValue } from '../../types.js';

export const NOT_LOGGED_IN = 'You are not logged in. Please log in again.';
export const UNKNOWN_CLIENT = 'Unknown client.';

/** The session token and its stored id from the signed cookie, or `undefined`. */
function sessionCookieValue(request: FastifyRequest): SessionCookieValue | undefined {
  const { sessionCookie } = request.server;
  const raw = request.cookies[sessionCookie.name];
  return raw === undefined ? undefined : sessionCookie.unsign(raw);
}

/** The raw session token from the signed cookie, or `undefined`. */
export function sessionToken(request: FastifyRequest): string | undefined {
  return sessionCookieValue(request)?.token;
}

export function setSessionCookie(reply: FastifyReply, token: string): void {
  const { name, secure } = reply.server.sessionCookie;
  reply.setCookie(name, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    signed: true,
    maxAge: Math.floor(SESSION_ABSOLUTE_MS / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  const { name, secure } = reply.server.sessionCookie;
  reply.clearCookie(name, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

/**
 * Tenancy: `:client` is resolved once per request, together with the session (one query, whose answer SQLite
 * lets us reuse only until anything is written to the database by anyone: committed-reads.ts), and a session
 * only counts for the client it was created for (another client's session is simply not logged in there:
 * 401).
 */
export default fp(
  (app) => {
    app.decorateRequest('portalClient', null);
    app.decorateRequest('portalUser', null);

    app.decorate('loadClient', async (request: FastifyRequest) => {
      const { client: prefix } = request.params as { client?: string };
      const found =
        prefix === undefined || !PREFIX.test(prefix)
          ? undefined
          : await findClientSession(
              app.db.kysely,
              prefix,
              sessionCookieValue(request)?.id,
              app.clock(),
              sharedCheckOf(request.raw),
            );
      if (found === undefined) throw new HttpError(404, UNKNOWN_CLIENT);
      request.portalClient = found.client;
      request.portalUser = found.user ?? null;
    });

    app.decorate('requireUser', async (request: FastifyRequest) => {
      await app.loadClient(request);
      if (request.portalUser === null) throw new HttpError(401, NOT_LOGGED_IN);
    });

    // requireUser runs before the handler, which for a multipart body is before the body is read: an upload
    // may take minutes, and a session logged out (on any instance) or ended by the staff tool meanwhile must
    // not store it. Looked up again with no shared check (it checks other connections' commits itself).
    app.decorate('requireUserStill', async (request: FastifyRequest) => {
      const before = request.portalUser;
      const found = await findClientSession(
        app.db.kysely,
        request.portalClient?.prefix ?? '',
        sessionCookieValue(request)?.id,
        app.clock(),
      );
      if (before === null || found?.user === undefined || found.user.id !== before.id) {
        throw new HttpError(401, NOT_LOGGED_IN);
      }
      request.portalClient = found.client;
      request.portalUser = found.user;
    });
  },
  { name: 'session', dependencies: ['services', 'cookie'] },
);
