import type { FastifyInstance } from 'fastify';
import type { ActivityAction } from '../../db/schema.js';
import { MINUTE } from '../../clock.js';
import { insertActivity } from '../../repositories/records.js';
import { RateWindow } from '../../services/rate-window.js';
import { HttpError, clientOf, userOf } from '../../types.js';
import { clientParams, errors, requiredText } from '../schemas.js';

/**
 * Activity records a user may write in a minute: a person moving through the portal writes a few (a view per
 * page, a search, a submit); a script looping on the call would otherwise fill the table without end.
 */
export const ACTIVITY_PER_MINUTE = 60;
export const TOO_MUCH_ACTIVITY = 'Too many activity records in a minute. Please wait a moment.';

/** POST /api/{client}/activity: page views, submits and searches, per client and user. */
export default function activityRoutes(app: FastifyInstance): void {
  const perUser = new RateWindow(ACTIVITY_PER_MINUTE, MINUTE);
  app.post<{ Params: { client: string }; Body: { action: ActivityAction; item: string } }>(
    '/api/:client/activity',
    {
      schema: {
        summary: 'Record a page view, submit or search',
        description: `At most ${ACTIVITY_PER_MINUTE} a minute per user; past it, a 429 with Retry-After.`,
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
          ...errors(400, 401, 403, 404, 415, 429),
        },
      },
      preValidation: app.requireUser,
    },
    async (request, reply) => {
      const waitMs = perUser.hit(userOf(request).id, app.clock().getTime());
      if (waitMs > 0) {
        void reply.header('retry-after', String(Math.ceil(waitMs / 1000)));
        throw new HttpError(429, TOO_MUCH_ACTIVITY);
      }
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
