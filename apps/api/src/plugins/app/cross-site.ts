import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { findClientByPrefix } from '../../repositories/clients.js';
import { PREFIX } from '../../services/content-rules.js';
import { HttpError } from '../../types.js';
import { UNKNOWN_CLIENT } from './session.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
export const CROSS_SITE_MESSAGE = 'Cross-site request refused.';

/** Whether a request may change state: it must come from this site (Sec-Fetch-Site / Origin). */
export function isSameSite(request: FastifyRequest, publicOrigin: string): boolean {
  const fetchSite = request.headers['sec-fetch-site'];
  if (fetchSite !== undefined && fetchSite !== 'same-origin' && fetchSite !== 'none') return false;
  const origin = request.headers.origin;
  // A browser sends `Origin: null` on a same-origin form POST from a page with a strict referrer
  // policy; Sec-Fetch-Site (which no page can forge) then vouches for it.
  if (origin === 'null' && fetchSite === 'same-origin') return true;
  // The host the request names, by the scheme the site is served over. An https site behind a proxy that does not
  // say so (TRUST_PROXY unset) sees plain http: `http://` + its own host name was accepted, so a page served over
  // plain http under the site's name (a network attacker's, to a browser without Sec-Fetch-Site) could post to the
  // https site with its Lax cookie (found by the thirtieth session's probe). An https site never takes an http
  // Origin; another of its names opened over https is still its own.
  const scheme = publicOrigin.startsWith('https:') ? 'https' : request.protocol;
  const own = `${scheme}://${request.host}`;
  if (origin !== undefined) return origin === publicOrigin || origin === own;
  // No Origin: browsers that send neither it nor Sec-Fetch-Site (older ones, on a form POST or a link
  // followed) still name the page that made the request in Referer. One of another site (or one that names
  // no site) is refused; no Referer at all (this site's pages send none, and other clients need not) is not.
  const referer = request.headers.referer;
  if (referer !== undefined) {
    const from = refererOrigin(referer);
    return from === publicOrigin || from === own;
  }
  return true;
}

/** The origin a Referer names (`https://site.example`), or `undefined` when it is not an absolute URL. */
function refererOrigin(referer: string): string | undefined {
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

/** Whether a request is a person opening a page (a browser's navigation), rather than a script or a fetch. */
export function isNavigation(request: FastifyRequest): boolean {
  const dest = request.headers['sec-fetch-dest'];
  if (dest !== undefined) return dest === 'document';
  return (request.headers.accept ?? '').includes('text/html');
}

export const NOT_A_NAVIGATION_MESSAGE =
  'Refused: this address only works when opened as a page (the Log out link), not loaded by one.';

/**
 * Whether a GET is the browser opening a page (a link followed, an address typed), by Sec-Fetch-Mode and
 * Sec-Fetch-Dest: not an image, script, frame or fetch a page of this very site makes (content could hold
 * `<img src="/api/demo/logout">`). Browsers without those headers (and other clients) are let through.
 */
export function isTopLevelNavigation(request: FastifyRequest): boolean {
  const {
    'sec-fetch-mode': mode,
    'sec-fetch-dest': dest,
    'sec-fetch-site': site,
  } = request.headers;
  // A browser sends the three Fetch Metadata headers together. Sec-Fetch-Mode alone is no browser: Node's
  // fetch (undici) sends `Sec-Fetch-Mode: cors` on every request, and a script's logout must work.
  if (site === undefined && dest === undefined) return true;
  return (mode === undefined || mode === 'navigate') && (dest === undefined || dest === 'document');
}

export const PREFETCH_MESSAGE =
  'Not logged out: the browser was only loading the Log out link ahead of time. Open the link to log out.';

/**
 * Whether a GET is the browser fetching a page ahead of time, before anyone asked for it: a prefetch or prerender
 * (speculation rules, the address bar's predictions, `<link rel="prefetch">`) says so in `Sec-Purpose` (`prefetch`,
 * `prefetch;prerender`), older Chrome in `Purpose: prefetch`, Firefox in `X-Moz: prefetch` and Safari in
 * `X-Purpose: preview`. Such a request is a navigation by its Fetch Metadata (`navigate`, `document`), so the
 * logout's own check let it through: a prerender of the Log out link ended the session nobody had asked to end
 * (found by the thirtieth session's API probe).
 */
export function isPrefetch(request: FastifyRequest): boolean {
  const {
    'sec-purpose': secPurpose,
    purpose,
    'x-purpose': xPurpose,
    'x-moz': xMoz,
  } = request.headers;
  return [secPurpose, purpose, xPurpose, xMoz].some(
    (value) => typeof value === 'string' && /\b(?:prefetch|prerender|preview)\b/i.test(value),
  );
}

const crossSite = (): HttpError => new HttpError(403, CROSS_SITE_MESSAGE);

/** Whether the request's `:client` names no client (a prefix of the wrong form is none without asking). */
async function unknownClient(request: FastifyRequest): Promise<boolean> {
  const { client: prefix } = request.params as { client?: string };
  if (prefix === undefined || !PREFIX.test(prefix)) return true;
  return (await findClientByPrefix(request.server.db.kysely, prefix)) === undefined;
}

/**
 * Cookie-authenticated state changes are refused when the browser says they come from another site.
 * Applies to every unsafe method and to routes marked `config: { stateChanging: true }` (logout), which
 * must moreover be opened as a page, and not fetched ahead of time by the browser.
 */
export default fp(
  (app) => {
    const publicOrigin = app.config.publicUrl.origin;
    app.addHook('onRequest', (request, _reply, done) => {
      const config = request.routeOptions.config as
        { stateChanging?: boolean; page?: boolean } | undefined;
      const marked = config?.stateChanging === true;
      if ((!SAFE_METHODS.has(request.method) || marked) && !isSameSite(request, publicOrigin)) {
        // A person who opened Log out or posted the login link's Continue from another site sees a page
        // (app.ts, linkRefusalPage). For a client that does not exist, that is the page every other address of an
        // unknown client gets, 404: the cross-site one linked to `/<name>/dashboard`, the portal's 404 (noted by the
        // thirty-second session). Still refused, and nothing read but the client's row; a fetch or a script keeps
        // the 403 without any lookup, and so does a navigation whose lookup fails (the database down).
        if ((marked || config?.page === true) && isNavigation(request)) {
          void unknownClient(request).then(
            (unknown) => done(unknown ? new HttpError(404, UNKNOWN_CLIENT) : crossSite()),
            () => done(crossSite()),
          );
          return;
        }
        done(crossSite());
        return;
      }
      if (marked && SAFE_METHODS.has(request.method) && !isTopLevelNavigation(request)) {
        done(new HttpError(403, NOT_A_NAVIGATION_MESSAGE));
        return;
      }
      if (marked && isPrefetch(request)) {
        done(new HttpError(403, PREFETCH_MESSAGE));
        return;
      }
      done();
    });
  },
  { name: 'cross-site', dependencies: ['config', 'services'] },
);
