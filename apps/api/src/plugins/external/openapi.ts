import swagger from '@fastify/swagger';
import fp from 'fastify-plugin';

/** The OpenAPI document, generated from the route schemas, served at /api/openapi.json. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Client portal API',
          version: '1.0.0',
          description:
            'HTTP API of the advisory firm’s client portal. Errors are always `{ "error": "…" }`. ' +
            'Routes under /api/{client}/ except the client lookup, login and the login link need a ' +
            'session cookie of that client.',
        },
        components: {
          securitySchemes: {
            session: { type: 'apiKey', in: 'cookie', name: app.sessionCookie.name },
          },
        },
      },
      hideUntagged: false,
    });
    app.get('/api/openapi.json', { schema: { hide: true } }, () => app.swagger());
  },
  { name: 'openapi', dependencies: ['cookie'] },
);
