import type { FastifyInstance } from 'fastify';
import type { ActivityAction } from '../../db/schema.js';
import { insertActivity } from '../../repositories/records.js';
import { clientOf, userOf } from '../../types.js';
import { clientParams, errors, requiredText } from '../schemas.js';

/** POST /api/{client}/activity: page views, submits and searches, per client and user. */
export default function activityRoutes(app: FastifyInstance): void {
  app.post<{ Params: { client: string }; Body: { action: ActivityAction; item: string } }>(
    '/api/:client/activity',
    {
      schema: {
        summary: 'Record a page view, submit or search',
        tags: ['activity'],
        security: [{ session: [] }],
        params: clientParams,
        body: {
          type: 'object',
          properties: {
            action: { type: 'string', enum: ['view', 'submit', 'search'] },
            item: requiredText(500, 'The page, calculator or search text (one line, not blank)'),
          },
          required: ['action', 'item'],
          additionalProperties: false,
        },
        response: {
          204: { description: 'Recorded', type: 'null' },
          ...errors(400, 401, 403, 404, 415),
        },
      },
      preHandler: app.requireUser,
    },
    async (request, reply) => {
      await insertActivity(
        app.db.kysely,
        {
          clientId: clientOf(request).id,
          userId: userOf(request).id,
          action: request.body.action,
          item: request.body.item,
        },
        app.clock(),
      );
      return reply.code(204).send();
    },
  );
}
