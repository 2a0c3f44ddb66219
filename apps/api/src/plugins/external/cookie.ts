import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { resolveSessionSecret } from '../../config.js';
import { sha256 } from '../../crypto.js';
import type { SessionCookieValue } from '../../types.js';

/** Signed cookie values remembered as checked; past that the memory starts afresh. */
const MAX_CHECKED = 10_000;

/**
 * Cookies signed with SESSION_SECRET (a forged cookie is refused before the database is asked).
 *
 * Whether a value carries a valid signature depends only on the value and the secret, so the session
 * cookie's checked values are remembered (with the stored session id, the token's SHA-256) instead of
 * recomputing an HMAC and a hash for every request. Only the signature is remembered: whether the session
 * is live is asked of the database every time (see `findClientSession`).
 */
export default fp(
  async (app) => {
    await app.register(cookie, { secret: resolveSessionSecret(app.config) });
    const secure = app.config.publicUrl.protocol === 'https:';
    const checked = new Map<string, SessionCookieValue>();
    app.decorate('sessionCookie', {
      name: secure ? '__Host-sid' : 'sid',
      secure,
      unsign(raw: string): SessionCookieValue | undefined {
        const known = checked.get(raw);
        if (known !== undefined) return known;
        const unsigned = app.unsignCookie(raw);
        if (!unsigned.valid || unsigned.value === null) return undefined;
        const value = { token: unsigned.value, id: sha256(unsigned.value) };
        if (checked.size >= MAX_CHECKED) checked.clear();
        checked.set(raw, value);
        return value;
      },
    });
  },
  { name: 'cookie', dependencies: ['config'] },
);
