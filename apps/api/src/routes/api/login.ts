import type { FastifyInstance } from 'fastify';
import { publicLink } from '../../config.js';
import {
  createLoginToken,
  consumeLoginToken,
  peekLoginToken,
} from '../../repositories/login-tokens.js';
import { recordLoginAttempt } from '../../repositories/login-attempts.js';
import { enqueue } from '../../repositories/outbox.js';
import {
  createSession,
  deleteClientSession,
  deleteSession,
  sessionExists,
  startOpenSession,
} from '../../repositories/sessions.js';
import { upsertVerifiedUser, type UserDetails } from '../../repositories/users.js';
import { addressKey } from '../../services/address-key.js';
import { continuePage, invalidLinkPage } from '../../services/pages.js';
import { HttpError, clientOf } from '../../types.js';
import { clearSessionCookie, sessionToken, setSessionCookie } from '../../plugins/app/session.js';
import {
  NAME_MAX_LENGTH,
  clientParams,
  emailField,
  errors,
  phoneField,
  requiredText,
} from '../schemas.js';

export const TOO_MANY_ATTEMPTS =
  'Too many login attempts. Please wait a few minutes and try again.';

const loginBody = {
  type: 'object',
  properties: {
    first_name: requiredText(NAME_MAX_LENGTH),
    last_name: requiredText(NAME_MAX_LENGTH),
    email: emailField,
    phone: phoneField,
  },
  required: ['first_name', 'last_name', 'email', 'phone'],
  additionalProperties: false,
} as const;

interface LoginBody {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
}

const tokenField = { type: 'string', minLength: 1, maxLength: 200 } as const;
/**
 * What a login token can look like: `randomToken()` is base64url. A link whose token has any other character (a NUL,
 * a quote, a space a mail client added) is damaged: its Continue page would only fail later, so it is refused at once.
 */
const LINK_TOKEN = /^[A-Za-z0-9_-]+$/;

/** POST login (both policies), the login link's Continue page and its POST, and logout. */
/**
 * What the per-e-mail login limit counts under. A magic-link login e-mails the address, so those attempts count
 * together across every magic-link client (at most LOGIN_LIMIT_PER_EMAIL mails to one inbox a window, whichever
 * clients are asked). An open login sends nothing and proves nothing, so its attempts count per client: five open
 * logins under someone's address on the public demo no longer lock that person out of their own client.
 */
function emailLimitKey(client: { id: string; loginPolicy: string }, email: string): string {
  const inbox = inboxOf(email);
  return client.loginPolicy === 'open' ? `email:${client.id}:${inbox}` : `email:${inbox}`;
}

/** Mail services that ignore dots in the part before the @ (`a.b@gmail.com` is `ab@gmail.com`'s inbox). */
const DOTLESS_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The inbox an address (already trimmed and lower-cased) delivers to, as far as the limit is concerned: a
 * `+tag` after the local part is dropped (most mail services deliver `name+anything@` to `name@`), and so are
 * dots where the service ignores them. Counting each spelling apart let one inbox be sent any number of login
 * links in a window (`victim+1@…`, `victim+2@…`, `v.ictim@…`: found by the seventeenth session's API probe).
 * Only the count uses it; the mail goes to the address as typed.
 */
export function inboxOf(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return email;
  const domain = email.slice(at + 1);
  let local = email.slice(0, at);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (DOTLESS_DOMAINS.has(domain)) local = local.replaceAll('.', '') || local;
  return `${local}@${domain === 'googlemail.com' ? 'gmail.com' : domain}`;
}

export default function loginRoutes(app: FastifyInstance): void {
  app.post<{ Params: { client: string }; Body: LoginBody }>(
    '/api/:client/login',
    {
      schema: {
        summary: 'Log in',
        description:
          'Open clients: starts a session at once and answers `{ redirect: "/{client}/dashboard" }` with ' +
          'the cookie. Magic-link clients: always `{ redirect: false }` (known e-mail or not) and a login ' +
          'link is e-mailed. Rate-limited per e-mail and per address (429).',
        tags: ['login'],
        params: clientParams,
        body: loginBody,
        response: {
          200: {
            type: 'object',
            properties: { redirect: { anyOf: [{ type: 'string' }, { const: false }] } },
            required: ['redirect'],
            additionalProperties: false,
          },
          ...errors(400, 403, 404, 429),
        },
      },
      preValidation: app.loadClient,
    },
    async (request, reply) => {
      const client = clientOf(request);
      const details: UserDetails = {
        email: request.body.email.trim().toLowerCase(),
        first_name: request.body.first_name.trim(),
        last_name: request.body.last_name.trim(),
        phone: request.body.phone.trim(),
      };
      const { config, clock } = app;
      const allowed = await recordLoginAttempt(
        app.db.kysely,
        app.db.dialect,
        [
          { key: emailLimitKey(client, details.email), max: config.loginLimitPerEmail },
          { key: `address:${addressKey(request.ip)}`, max: config.loginLimitPerAddress },
        ],
        config.loginWindowMinutes * 60_000,
        clock(),
      );
      if (!allowed) {
        // At the latest, the window has passed by then (the oldest attempt may leave it sooner).
        void reply.header('retry-after', String(config.loginWindowMinutes * 60));
        throw new HttpError(429, TOO_MANY_ATTEMPTS);
      }

      if (client.loginPolicy === 'open') {
        // The policy is read again where the session is written: staff may have switched the client to
        // magic-link since it was loaded, and then this request is one of magic-link (below).
        const token = await startOpenSession(
          app.db.kysely,
          app.db.dialect,
          client.id,
          details,
          clock(),
        );
        if (token !== undefined) {
          const previous = sessionToken(request);
          if (previous !== undefined) await deleteSession(app.db.kysely, previous);
          setSessionCookie(reply, token);
          return { redirect: `/${client.prefix}/dashboard` };
        }
      }

      // Magic link: the same answer whatever the e-mail, given once the token and its mail are stored (they were
      // stored afterwards, in the background: a database lost in between, a restart, left neither behind a 200
      // "a login link is e-mailed", found by the thirtieth session's PostgreSQL probe); the mail is sent after.
      // The mail goes to an address nobody has proven yet, from the firm: it holds no text the request
      // chose (a "name" could otherwise put a message and a link of anyone's choosing above the real one).
      await app.db.kysely.transaction().execute(async (trx) => {
        const token = await createLoginToken(trx, client.id, details, clock());
        const link = publicLink(
          config,
          `/api/${client.prefix}/login/link?token=${encodeURIComponent(token)}`,
        );
        await enqueue(
          trx,
          {
            kind: 'mail',
            payload: {
              to: details.email,
              subject: `Your login link for ${client.name}`,
              text:
                'Hello,\n\n' +
                `Open this link to log in to the ${client.name} advisory hub:\n\n${link}\n\n` +
                'The link works once and for 15 minutes. If you did not ask for it, ignore this e-mail: ' +
                'nobody can log in without it.\n',
              logLine: `Login link for ${details.email} (${client.prefix}): ${link}`,
              // The row keeps the token only until the mail is sent.
              secret: token,
            },
          },
          clock(),
        );
      });
      app.background.run(async () => {
        await app.outbox.runOnce();
      });
      return { redirect: false };
    },
  );

  app.get<{ Params: { client: string }; Querystring: { token?: unknown } }>(
    '/api/:client/login/link',
    {
      config: { page: true },
      schema: {
        summary: 'The login link’s Continue page',
        description:
          'An HTML page whose button POSTs the token. Opening it has no side effects (mail scanners ' +
          'open links).',
        tags: ['login'],
        params: clientParams,
        // Checked in the handler, so that a person who opens a damaged link gets the page that says so,
        // not JSON; other parameters (mail services add `utm_source` and the like) are ignored.
        querystring: {
          type: 'object',
          properties: { token: { description: 'The token from the e-mail (1 to 200 characters)' } },
        },
        produces: ['text/html'],
        response: {
          200: { description: 'HTML Continue page', type: 'string' },
          400: { description: 'HTML page: the link is invalid', type: 'string' },
          ...errors(404),
        },
      },
      preValidation: app.loadClient,
    },
    async (request, reply) => {
      const client = clientOf(request);
      void reply
        .header('cache-control', 'no-store')
        // The token is in this page's URL: never send it to another site.
        .header('referrer-policy', 'same-origin')
        .type('text/html; charset=utf-8');
      const { token } = request.query;
      if (
        typeof token !== 'string' ||
        token.length < tokenField.minLength ||
        token.length > tokenField.maxLength ||
        !LINK_TOKEN.test(token)
      ) {
        return reply
          .code(400)
          .send(
            invalidLinkPage(client.name, client.prefix, { loggedIn: request.portalUser !== null }),
          );
      }
      // Read only: the details the link was asked with, and those its address's account holds.
      const details = await peekLoginToken(app.db.kysely, client.id, token, app.clock());
      return continuePage(client.name, client.prefix, token, details);
    },
  );

  app.post<{ Params: { client: string }; Body: { token: string; details?: 'given' | 'held' } }>(
    '/api/:client/login/link',
    {
      config: { page: true },
      schema: {
        summary: 'Use a login link',
        description:
          'Form POST (urlencoded `token`). A valid token (15 minutes, single use, this client) starts a ' +
          'session: cookie + 303 to /{client}/dashboard. Otherwise 400 with an HTML page.',
        tags: ['login'],
        params: clientParams,
        body: {
          type: 'object',
          properties: {
            token: tokenField,
            details: {
              type: 'string',
              enum: ['given', 'held'],
              description:
                'An existing account: `given` (the default) records the names and phone the link was asked ' +
                'with, `held` keeps those it holds (the Continue page offers both when they differ).',
            },
          },
          required: ['token'],
          additionalProperties: false,
        },
        response: {
          303: { description: 'Logged in: redirect to the dashboard', type: 'null' },
          400: { description: 'HTML page: the link is invalid or expired', type: 'string' },
          ...errors(403, 404),
        },
      },
      preValidation: app.loadClient,
    },
    async (request, reply) => {
      const client = clientOf(request);
      const { clock } = app;
      const previous = sessionToken(request);
      const token = await app.db.kysely.transaction().execute(async (trx) => {
        const details = await consumeLoginToken(trx, client.id, request.body.token, clock());
        if (details === undefined) return undefined;
        const user = await upsertVerifiedUser(trx, client.id, details, clock(), {
          keep: request.body.details,
        });
        // The browser's earlier session is ended with the link spent, not after: the database failing between
        // the two was the fault page saying the link had not been used, when it had (the next try said "invalid
        // or expired"), and no session was set (found by the thirty-second session's browser-fault probe).
        if (previous !== undefined) await deleteSession(trx, previous);
        return createSession(trx, client.id, user.id, clock());
      });
      void reply.header('cache-control', 'no-store');
      if (token === undefined) {
        return reply
          .code(400)
          .type('text/html; charset=utf-8')
          .send(
            invalidLinkPage(client.name, client.prefix, { loggedIn: request.portalUser !== null }),
          );
      }
      setSessionCookie(reply, token);
      return reply.redirect(`/${client.prefix}/dashboard`, 303);
    },
  );

  app.get<{ Params: { client: string } }>(
    '/api/:client/logout',
    {
      // GET because the spec says so; no automatic HEAD twin, which would end a session as well.
      exposeHeadRoute: false,
      config: { stateChanging: true },
      schema: {
        summary: 'Log out',
        description:
          'Ends the session on the server, clears the cookie and redirects to the login page.',
        tags: ['login'],
        params: clientParams,
        response: {
          303: { description: 'Redirect to /{client}/login', type: 'null' },
          ...errors(403, 404),
        },
      },
      // Found by the thirty-first session's browser-fault probe: with the database unavailable (PostgreSQL down,
      // past its timeout), the lookup of the client and session failed before the handler ran, and Log out showed
      // the raw JSON 503 and kept the cookie: the browser stayed logged in, for the next person at a shared
      // computer. The lookup's fault (any but its own refusal, an unknown client's 404) is logged and the handler
      // goes on without the client: it clears the cookie and goes to the login page.
      preValidation: async (request) => {
        try {
          await app.loadClient(request);
        } catch (error) {
          if (error instanceof HttpError) throw error;
          const { code, message } = error as { code?: unknown; message?: unknown };
          request.log.warn(
            { fault: { code, message } },
            'A logout could not look up its session in the database: the cookie was cleared, the session ' +
              'lives on until it runs out',
          );
        }
      },
    },
    async (request, reply) => {
      if (request.portalClient === null) {
        // The lookup failed (above), which it only reaches for a prefix of the right form.
        if (sessionToken(request) !== undefined) clearSessionCookie(reply);
        void reply.header('cache-control', 'no-store');
        return reply.redirect(`/${encodeURIComponent(request.params.client)}/login`, 303);
      }
      const client = clientOf(request);
      const token = sessionToken(request);
      // Only a session of this client is ended here; another client's session is not this route's business.
      // Ended whether or not it lets anyone in right now (see deleteClientSession).
      // The cookie is cleared too when its session is no more (it ran out while the page stood open: the lookup
      // ended it): kept, the browser went on sending a cookie of nothing after the logout. Only another client's
      // live session keeps it.
      if (token !== undefined) {
        let ended: boolean;
        try {
          ended = await deleteClientSession(app.db.kysely, client.id, token);
        } catch (error) {
          // The database took no write (a full disk, a database not answering): the browser forgets this client's
          // session all the same, and the user gets the login page. Found by the thirty-first session's fault
          // probe: on a full disk Log out showed the raw JSON "cannot store this just now" and left the browser
          // logged in, for the next person at a shared computer. Another client's cookie is left as it is.
          const { code, message } = error as { code?: unknown; message?: unknown };
          request.log.warn(
            { fault: { code, message } },
            request.portalUser === null
              ? 'A logout could not look after its cookie in the database: it went to the login page'
              : 'A logout could not end its session in the database: the cookie was cleared, the session lives ' +
                  'on until it runs out',
          );
          if (request.portalUser !== null) clearSessionCookie(reply);
          void reply.header('cache-control', 'no-store');
          return reply.redirect(`/${client.prefix}/login`, 303);
        }
        // Whether the cookie is another client's live session. Asked after the delete: the database failing then
        // was the 503 page with the cookie kept, though the session may be gone (a session that ran out is ended by
        // the lookup, and the delete then finds nothing; found by the thirty-second session's browser-fault probe).
        // Not knowing, the cookie is cleared, as the user asked to log out (on a shared computer, perhaps).
        let otherClients = false;
        if (!ended && request.portalUser === null) {
          try {
            otherClients = await sessionExists(app.db.kysely, token);
          } catch (error) {
            const { code, message } = error as { code?: unknown; message?: unknown };
            request.log.warn(
              { fault: { code, message } },
              'A logout could not tell whether its cookie was another client’s session: the cookie was cleared',
            );
          }
        }
        if (!otherClients) clearSessionCookie(reply);
      }
      void reply.header('cache-control', 'no-store');
      return reply.redirect(`/${client.prefix}/login`, 303);
    },
  );
}
