import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';

/**
 * The portal's Content-Security-Policy: styled-components needs inline styles, nothing else is allowed from
 * outside this origin; the sample report PDF is embedded in a same-origin frame.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "media-src 'self'",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
  "form-action 'self'",
].join(';');

/**
 * The security headers of every response, fixed at start-up. They are byte for byte what @fastify/helmet 13
 * (helmet 8) set with this app's options (the CSP above without helmet's defaults, frameguard `sameorigin`,
 * no Cross-Origin-Embedder-Policy, HSTS only over https; test/security-headers.test.ts holds them to it),
 * without helmet rebuilding them for every request.
 */
export function securityHeaders(https: boolean): Readonly<Record<string, string>> {
  return Object.freeze({
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'cross-origin-opener-policy': 'same-origin',
    'cross-origin-resource-policy': 'same-origin',
    'origin-agent-cluster': '?1',
    'referrer-policy': 'no-referrer',
    ...(https ? { 'strict-transport-security': 'max-age=31536000; includeSubDomains' } : {}),
    'x-content-type-options': 'nosniff',
    'x-dns-prefetch-control': 'off',
    'x-download-options': 'noopen',
    'x-frame-options': 'SAMEORIGIN',
    'x-permitted-cross-domain-policies': 'none',
    'x-xss-protection': '0',
  });
}

/**
 * Security headers on every response (API, media, the portal's files, errors and 404s), set when the request
 * arrives so a route may still replace one (the media files' sandboxing CSP).
 */
export default fp(
  (app) => {
    const headers = securityHeaders(app.config.publicUrl.protocol === 'https:');
    app.addHook(
      'onRequest',
      (_request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
        void reply.headers(headers);
        done();
      },
    );
  },
  { name: 'security', dependencies: ['config'] },
);
