import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PREFIX } from '../../services/content-import.js';
import { SESSION_ABSOLUTE_MS, findClientSession } from '../../repositories/sessions.js';
import { sharedCheckOf } from '../../services/arrival-turn.js';
import { HttpError, type SessionCookieValue } from '../../types.js';

export const NOT_LOGGED_IN = 'You are not logged in. Please log in again.';
export const UNKNOWN_CLIENT = 'Unknown client.';

/**
 * The session token and its stored id from the signed cookie, or `undefined`. A browser sends every cookie of the
 * name it holds (one of another path, a stale one, one a neighbouring site set over plain HTTP), and the cookie
 * parser keeps the first: when that one is not validly signed, the others are tried, so that a cookie that is
 * not ours cannot lock the user out (found by the twentieth session's API probe: `sid=x; sid=<valid>` was a 401).
 * Only a validly signed value is ever taken.
 */
function sessionCookieValue(request: FastifyRequest): SessionCookieValue | undefined {
  const { sessionCookie } = request.server;
  const raw = request.cookies[sessionCookie.name];
  if (raw === undefined) return undefined;
  const first = sessionCookie.unsign(raw);
  if (first !== undefined) return first;
  for (const other of cookieValues(request.headers.cookie ?? '', sessionCookie.name).slice(1)) {
    const value = sessionCookie.unsign(other);
    if (value !== undefined) return value;
  }
  return undefined;
}

/** Every value of the cookie `name` in a Cookie header, in order, decoded as the cookie parser decodes them. */
function cookieValues(header: string, name: string): string[] {
  const values: string[] = [];
  for (const pair of header.split(';')) {
    const at = pair.indexOf('=');
    if (at === -1 || pair.slice(0, at).trim() !== name) continue;
    const value = pair.slice(at + 1).trim();
    try {
      values.push(value.includes('%') ? decodeURIComponent(value) : value);
    } catch {
      values.push(value);
    }
  }
  return values;
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
