import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fp from 'fastify-plugin';
import { MEDIA_EXTENSIONS } from '../../services/content-import.js';
import { portalShellLoader } from '../../services/portal-page.js';
import { HttpError, clientOf } from '../../types.js';
import { NOT_LOGGED_IN } from './session.js';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** A client's media other than its logo: kept by the user's browser, never by a shared cache. */
const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';
const MEDIA_FILE = new RegExp(
  `^[a-f0-9]{20}(${MEDIA_EXTENSIONS.map((e) => e.replace('.', '\\.')).join('|')})$`,
);
/** Media may be SVG: opened on its own it must not run anything. */
const MEDIA_CSP = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/** The file name of a client's logo (`/media/{client}/{file}`), which its login page shows to anyone. */
function logoFile(logoUrl: string | null, prefix: string): string | undefined {
  const own = `/media/${prefix}/`;
  return logoUrl?.startsWith(own) ? logoUrl.slice(own.length) : undefined;
}

/**
 * Imported media (/media/{client}/{file}, content-hash names, cached for ever: a client's logo for anyone, as
 * its login page shows it; everything else only with a session of that client, like the content that links
 * it) and, when PORTAL_DIST exists,
 * the portal's built files: hashed /assets/* cached for ever, index.html revalidated, and the SPA fallback
 * for /{client}/… (see the not-found handler in app.ts).
 */
export default fp(
  async (app) => {
    const mediaDir = path.join(app.config.dataDir, 'media');
    await app.register(fastifyStatic, { root: mediaDir, serve: false });

    app.get<{ Params: { client: string; file: string } }>(
      '/media/:client/:file',
      {
        schema: {
          summary: 'Imported media (images, video, captions)',
          description:
            'The client’s logo is public (its login page shows it); any other file needs a session of ' +
            'this client (401 otherwise, whether or not the file exists).',
          tags: ['media'],
          params: {
            type: 'object',
            properties: { client: { type: 'string' }, file: { type: 'string' } },
            required: ['client', 'file'],
          },
        },
        // The client and the session, read together as for every API call (404 for an unknown client).
        preValidation: app.loadClient,
      },
      (request, reply) => {
        const { client: prefix, file } = request.params;
        const client = clientOf(request);
        const isLogo = file === logoFile(client.branding.logo_url, prefix);
        if (!isLogo && request.portalUser === null) throw new HttpError(401, NOT_LOGGED_IN);
        if (!MEDIA_FILE.test(file)) throw new HttpError(404, 'Not found.');
        return reply
          .header('cache-control', isLogo ? IMMUTABLE : PRIVATE_IMMUTABLE)
          .header('content-security-policy', MEDIA_CSP)
          .sendFile(file, path.join(mediaDir, client.prefix), { cacheControl: false });
      },
    );

    const dist = app.config.portalDist;
    if (!existsSync(path.join(dist, 'index.html'))) {
      app.log.info(
        { portalDist: dist },
        'The portal has not been built (no index.html in PORTAL_DIST): serving the API only',
      );
      return;
    }
    await app.register(fastifyStatic, {
      root: dist,
      prefix: '/',
      decorateReply: false,
      index: false,
      cacheControl: false,
      wildcard: true,
      // The build writes name.br and name.gz beside each text file: sent when Accept-Encoding allows, with
      // `Vary: Accept-Encoding`, so nothing is compressed per request.
      preCompressed: true,
      // Build by-products stay private: the Vite manifest (a dot folder), source maps, and the compressed copies
      // under their own names (they are only sent as an encoding of the file they copy).
      allowedPath: (pathName) =>
        !/\.(map|br|gz)$/.test(pathName) &&
        !pathName.split('/').some((part) => part.startsWith('.')),
      setHeaders: (res, filePath) => {
        const relative = path.relative(dist, filePath).split(path.sep);
        void res.header('cache-control', relative[0] === 'assets' ? IMMUTABLE : 'no-cache');
      },
    });
    // Each page's HTML is index.html plus the page's first answers and preloads (services/portal-page.ts).
    app.decorate('portalShell', portalShellLoader(dist));
  },
  { name: 'static', dependencies: ['config', 'session'] },
);
