import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import fp from 'fastify-plugin';
import { MAX_UPLOAD_BYTES } from '../../services/uploads.js';

/** urlencoded bodies (the login link's Continue form) and streamed multipart (due diligence). */
export default fp(
  async (app) => {
    await app.register(formbody, { bodyLimit: 4096 });
    await app.register(multipart, {
      // We count the bytes ourselves to answer 413 and delete the partial file; busboy stops one byte
      // later and discards the rest of the file so the browser sees the 413, within the bounds the route
      // sets (MAX_BODY_BYTES, DRAIN_MS in routes/api/due-diligence.ts). The route answers the other limits
      // (a second file, too many fields or parts) with a 400 in its own words.
      throwFileSizeLimit: false,
      limits: {
        fileSize: MAX_UPLOAD_BYTES + 1,
        files: 1,
        fields: 20,
        fieldSize: 20_000,
        parts: 25,
        headerPairs: 100,
      },
    });
  },
  { name: 'body-parsers' },
);
