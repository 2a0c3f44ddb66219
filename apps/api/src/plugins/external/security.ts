import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Security headers on every response (API, media and the portal's files), with the portal's CSP:
 * styled-components needs inline styles, nothing else is allowed from outside this origin.
 */
export default fp(
  async (app) => {
    await app.register(helmet, {
      global: true,
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          mediaSrc: ["'self'"],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          frameSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'none'"],
          frameAncestors: ["'self'"],
          formAction: ["'self'"],
        },
      },
      // The sample report PDF is embedded in a same-origin frame.
      frameguard: { action: 'sameorigin' },
      crossOriginEmbedderPolicy: false,
      hsts: app.config.publicUrl.protocol === 'https:',
    });
  },
  { name: 'security', dependencies: ['config'] },
);
