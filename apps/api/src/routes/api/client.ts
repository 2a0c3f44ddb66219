import type { FastifyInstance } from 'fastify';
import path from 'node:path';
import { LogoSizes } from '../../services/image-size.js';
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
        // The logo's own width and height, so that its place is kept before it loads (found by the twenty-fifth
        // session's portal probe: the header moved when it came, pushing the page down by a line on a phone).
        logo_size: {
          anyOf: [
            { type: 'null' },
            {
              type: 'object',
              properties: { width: { type: 'number' }, height: { type: 'number' } },
              required: ['width', 'height'],
              additionalProperties: false,
            },
          ],
        },
      },
      required: ['primary', 'accent', 'logo_url', 'logo_size'],
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
  const logoSizes = new LogoSizes(path.join(app.config.dataDir, 'media'));
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
        branding: {
          ...client.branding,
          logo_size: await logoSizes.of(client.prefix, client.branding.logo_url),
        },
        contact: {
          phone: client.contactPhone ?? app.config.providerPhone,
          email: client.contactEmail ?? app.config.providerEmail,
        },
        footer: { blurb: app.config.footerBlurb, regulatory: app.config.regulatoryText },
      };
    },
  );
}
