import type { FastifyInstance } from 'fastify';
import { clientOf } from '../../types.js';
import { clientParams, errors } from '../schemas.js';

const clientSchema = {
  type: 'object',
  properties: {
    prefix: { type: 'string' },
    name: { type: 'string' },
    logged_in: { type: 'boolean' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    email: { type: 'string' },
    phone: { type: 'string' },
    login_policy: { type: 'string', enum: ['open', 'magic-link'] },
    branding: {
      type: 'object',
      properties: {
        primary: { type: 'string' },
        accent: { type: 'string' },
        logo_url: { type: ['string', 'null'] },
      },
      required: ['primary', 'accent', 'logo_url'],
      additionalProperties: false,
    },
    contact: {
      type: 'object',
      properties: { phone: { type: 'string' }, email: { type: 'string' } },
      required: ['phone', 'email'],
      additionalProperties: false,
    },
    footer: {
      type: 'object',
      properties: { blurb: { type: 'string' }, regulatory: { type: 'string' } },
      required: ['blurb', 'regulatory'],
      additionalProperties: false,
    },
  },
  required: [
    'prefix',
    'name',
    'logged_in',
    'first_name',
    'last_name',
    'email',
    'phone',
    'login_policy',
    'branding',
    'contact',
    'footer',
  ],
  additionalProperties: false,
} as const;

/** GET /api/{client}: the client, and who is logged in (no session needed). */
export default function clientRoutes(app: FastifyInstance): void {
  app.get(
    '/api/:client',
    {
      schema: {
        summary: 'The client and the logged-in user',
        description:
          'No session needed; without one `logged_in` is false and the user fields empty.',
        tags: ['client'],
        params: clientParams,
        response: { 200: clientSchema, ...errors(404) },
      },
      preValidation: app.loadClient,
    },
    async (request, reply) => {
      const client = clientOf(request);
      const user = request.portalUser;
      void reply.header('cache-control', 'no-store');
      return {
        prefix: client.prefix,
        name: client.name,
        logged_in: user !== null,
        first_name: user?.first_name ?? '',
        last_name: user?.last_name ?? '',
        email: user?.email ?? '',
        phone: user?.phone ?? '',
        login_policy: client.loginPolicy,
        branding: client.branding,
        contact: {
          phone: client.contactPhone ?? app.config.providerPhone,
          email: client.contactEmail ?? app.config.providerEmail,
        },
        footer: { blurb: app.config.footerBlurb, regulatory: app.config.regulatoryText },
      };
    },
  );
}
