import cookie from '@fastify/cookie';
import fp from 'fastify-plugin';
import { resolveSessionSecret } from '../../config.js';

/** Cookies signed with SESSION_SECRET (a forged cookie is refused before the database is asked). */
export default fp(
  async (app) => {
    await app.register(cookie, { secret: resolveSessionSecret(app.config) });
    const secure = app.config.publicUrl.protocol === 'https:';
    app.decorate('sessionCookie', { name: secure ? '__Host-sid' : 'sid', secure });
  },
  { name: 'cookie', dependencies: ['config'] },
);
