import type { FastifyInstance } from 'fastify';
import type { ContentType } from '../../db/schema.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import {
  findContentBySlugs,
  findContentItem,
  findVideo,
  inOneSnapshot,
  firstContent,
  MAX_RELATED,
  readHub,
  type ContentCardRow,
  type TopicRow,
} from '../../repositories/content.js';
import { searchFold } from '../../db/search-text.js';
import { asciiJson } from '../../services/ascii-json.js';
import {
  compress,
  compressAsync,
  preferredEncoding,
  type Encoding,
} from '../../services/compression.js';
import { OneAtATime } from '../../services/one-at-a-time.js';
import { sanitizeHtml } from '../../services/sanitize.js';
import { HttpError, clientOf } from '../../types.js';
import { clientParams, contentItemSchema, errors, topicSchema } from '../schemas.js';

const RELATED_FALLBACK = 3;

const toItem = (row: ContentCardRow) => ({
  id: row.slug,
  type: row.type,
  title: row.title,
  description_text: row.summary,
  image_url: row.image_url,
});

const toTopic = (row: TopicRow) => ({
  id: row.slug,
  title: row.title,
  description: sanitizeHtml(row.html),
  pro_tip: row.pro_tip === null ? null : sanitizeHtml(row.pro_tip),
});

/** Distinct answers kept per process; past that the cache starts afresh (searches vary without end). */
const MAX_CACHED_ANSWERS = 500;

/** Answers shorter than this are sent as they are: compressing them saves next to nothing. */
const MIN_COMPRESSED_BYTES = 1024;

/**
 * A compressed form of an answer: made quickly for the first request that accepts it, and made again at the
 * smallest setting, off the event loop, once a second request shows the answer is sent more than once.
 */
interface Form {
  bytes: Buffer;
  state: 'quick' | 'refining' | 'smallest';
}

/** One serialised answer (ASCII-only JSON) and its compressed forms. */
interface Answer {
  identity: Buffer;
  br?: Form;
  gzip?: Form;
}

/** Dashboard content, information topics, search, articles and the dashboard video. */
export default function contentRoutes(app: FastifyInstance): void {
  /**
   * Re-makes a form at the smallest setting in the thread pool; requests meanwhile get the quick one. One at a
   * time: the smallest brotli of the hub holds a pool thread for 35–80 ms, and the pool (four threads) also reads
   * the static and media files and the uploads. Searches vary without end, each sent twice started one, and a
   * session asking for a few hundred searches twice over held every file read of every visitor for seconds (found
   * by the twenty-second session's API probe). A form whose turn has not come stays quick until a later request.
   */
  const refining = new OneAtATime();
  const refine = (identity: Buffer, encoding: Encoding, form: Form) => {
    refining.offer(async () => {
      form.state = 'refining';
      try {
        form.bytes = await compressAsync(identity, encoding, { smallest: true });
      } catch (error) {
        // The quick form stays, and is not tried again: it is correct, only larger.
        app.log.warn({ err: error, encoding }, 'Could not recompress a content answer');
      }
      form.state = 'smallest';
    });
  };

  // GET content answers, serialised (and compressed on demand), keyed by client, content version and search
  // text. The version lives on the client row (read for every request anyway) and every import bumps it, so
  // an import by any instance or by the staff tool is seen at once: no stale answer, no extra query.
  const answers = new Map<string, Answer>();

  app.get<{ Params: { client: string }; Querystring: { search?: string } }>(
    '/api/:client/content',
    {
      schema: {
        summary: 'Dashboard content and information topics, or a search',
        description:
          'With `search`, only items whose title or text contains it (any case). Topics’ HTML is sanitised. ' +
          'Sent brotli- or gzip-compressed when Accept-Encoding allows it (`Vary: Accept-Encoding`).',
        tags: ['content'],
        security: [{ session: [] }],
        params: clientParams,
        querystring: {
          type: 'object',
          properties: { search: { type: 'string', maxLength: 200 } },
          additionalProperties: false,
        },
        response: {
          200: {
            type: 'object',
            properties: {
              insights: { type: 'array', items: contentItemSchema },
              case_studies: { type: 'array', items: contentItemSchema },
              insurance: { type: 'array', items: topicSchema },
            },
            required: ['insights', 'case_studies', 'insurance'],
            additionalProperties: false,
          },
          ...errors(400, 401, 404),
        },
      },
      preValidation: app.requireUser,
    },
    async (request, reply) => {
      const client = clientOf(request);
      const search = request.query.search?.trim();
      // Searches that differ only as search folds them (case, Unicode form) are one answer, kept once.
      const folded = search === undefined ? '' : searchFold(search);
      const keyOf = (version: number) => `${client.id}\u0000${version}\u0000${folded}`;
      let answer = answers.get(keyOf(client.contentVersion));
      if (answer === undefined) {
        // Read as one moment saw it, and kept under the version that moment had (an import may have
        // committed since the session's read of the client).
        const hub = await readHub(app.db.kysely, client.id, search);
        const body = asciiJson({
          insights: hub.insights.map(toItem),
          case_studies: hub.caseStudies.map(toItem),
          insurance: hub.topics.map(toTopic),
        });
        answer = { identity: Buffer.from(body, 'latin1') };
        if (answers.size >= MAX_CACHED_ANSWERS) answers.clear();
        answers.set(keyOf(hub.contentVersion), answer);
      }
      void reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
      const encoding =
        answer.identity.length < MIN_COMPRESSED_BYTES
          ? undefined
          : preferredEncoding(request.headers['accept-encoding']);
      if (encoding === undefined) return reply.send(answer.identity);
      let form = answer[encoding];
      if (form === undefined) {
        form = { bytes: compress(answer.identity, encoding), state: 'quick' };
        answer[encoding] = form;
      } else if (form.state === 'quick') {
        refine(answer.identity, encoding, form);
      }
      return reply.header('content-encoding', encoding).send(form.bytes);
    },
  );

  app.get<{
    Params: { client: string };
    Querystring: { id: string; type: Exclude<ContentType, 'topic'> };
  }>(
    '/api/:client/article',
    {
      schema: {
        summary: 'An article (case study or insight) and related items',
        tags: ['content'],
        security: [{ session: [] }],
        params: clientParams,
        querystring: {
          type: 'object',
          properties: {
            id: { type: 'string', minLength: 1, maxLength: 100 },
            type: { type: 'string', enum: ['case_study', 'insight'] },
          },
          required: ['id', 'type'],
          additionalProperties: false,
        },
        response: {
          200: {
            type: 'object',
            properties: {
              id: { type: 'string' },
              type: { type: 'string', enum: ['case_study', 'insight'] },
              title: { type: 'string' },
              image_url: { type: ['string', 'null'] },
              description: { type: 'string', description: 'Sanitised HTML' },
              related: { type: 'array', items: contentItemSchema },
            },
            required: ['id', 'type', 'title', 'image_url', 'description', 'related'],
            additionalProperties: false,
          },
          ...errors(400, 401, 404),
        },
      },
      preValidation: app.requireUser,
    },
    async (request) => {
      const client = clientOf(request);
      const { id, type } = request.query;
      // The article and its related items as one moment saw them (an import may commit in between).
      return inOneSnapshot(app.db.kysely, (db) => readArticle(db, client.id, type, id));
    },
  );

  /** An article and its related items (the author's, else a few of the same type), or a 404. */
  async function readArticle(
    db: Kysely<Database>,
    clientId: string,
    type: Exclude<ContentType, 'topic'>,
    id: string,
  ) {
    const row = await findContentItem(db, clientId, type, id);
    if (row === undefined) throw new HttpError(404, 'Article not found.');
    const wanted = (JSON.parse(row.related) as string[])
      .filter((slug) => slug !== row.slug)
      .slice(0, MAX_RELATED);
    let related: ContentCardRow[];
    if (wanted.length > 0) {
      const found = await findContentBySlugs(db, clientId, wanted);
      // Keep the author's order; a slug used by both types resolves to the article's own type first.
      related = wanted.flatMap((slug) => {
        const matches = found.filter((r) => r.slug === slug);
        const match = matches.find((r) => r.type === row.type) ?? matches[0];
        return match === undefined ? [] : [match];
      });
    } else {
      // One more than needed: the article itself may be among them.
      related = (await firstContent(db, clientId, type, RELATED_FALLBACK + 1))
        .filter((r) => r.slug !== row.slug)
        .slice(0, RELATED_FALLBACK);
    }
    return {
      id: row.slug,
      type: row.type,
      title: row.title,
      image_url: row.image_url,
      description: sanitizeHtml(row.html),
      related: related.map(toItem),
    };
  }

  app.get<{ Params: { client: string } }>(
    '/api/:client/video',
    {
      schema: {
        summary: 'The dashboard video',
        tags: ['content'],
        security: [{ session: [] }],
        params: clientParams,
        response: {
          200: {
            type: 'object',
            properties: {
              title: { type: 'string' },
              src: { type: 'string' },
              poster: { type: ['string', 'null'] },
              captions: { type: ['string', 'null'] },
              description: { type: 'string', description: 'Sanitised HTML' },
            },
            required: ['title', 'src', 'poster', 'captions', 'description'],
            additionalProperties: false,
          },
          ...errors(401, 404),
        },
      },
      preValidation: app.requireUser,
    },
    async (request) => {
      const video = await findVideo(app.db.kysely, clientOf(request).id);
      if (video === undefined) throw new HttpError(404, 'This client has no video.');
      return { ...video, description: sanitizeHtml(video.description) };
    },
  );
}
