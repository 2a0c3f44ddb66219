import createDOMPurify from 'dompurify';
import { JSDOM } from 'jsdom';

const { window } = new JSDOM('');
const purify = createDOMPurify(window);

/** Relative links, same-site paths, fragments, http(s), mailto and tel. No javascript:, data:, vbscript: … */
const SAFE_URL = /^(?:https?:|mailto:|tel:|\/(?!\/)|#|\.{1,2}\/|[^:/?#]+(?:[/?#]|$))/i;
const URL_ATTRIBUTES = ['href', 'src', 'poster', 'action', 'formaction', 'xlink:href', 'cite'];

/**
 * What a page loads by itself (src, poster) may only be imported media: published (`/media/<client>/<hash>.ext`)
 * or, before the import publishes it, a file under the content folder's media/. Anything else would have every
 * viewer's browser request it: `<img src="/api/demo/logout">` would log them out.
 */
const MEDIA_URL =
  /^(?:\/media\/[a-z0-9-]+\/[a-f0-9]{20}\.[a-z0-9]+|(?:\.\/)?media\/(?!.*\.\.)[\w./-]+)$/;
const EMBED_ATTRIBUTES = new Set(['src', 'poster']);

/**
 * A URL attribute as the browser's URL parser reads it: control characters and spaces at either end dropped, tabs
 * and line breaks anywhere; and, for the checks' sake, other white space at the ends too (which a browser would
 * keep, percent-encoded, so the address stays on this site either way).
 */
function browserUrl(value: string): string {
  // One class for both, so that no control character is left behind a space (`&#1;&#160;&#1;//evil.example`).
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020\s]+|[\u0000-\u0020\s]+$/g, '');
}

/**
 * Where relative links are read from (the portal served over http or https), and the API's paths there. The
 * scheme matters: `https:/api/…` is a path of this site to a page served over https, another host's address to one
 * served over http.
 */
const SITES = [new URL('http://portal.invalid/'), new URL('https://portal.invalid/')];
const API_PATH = /^\/api(?:\/|$)/i;

/**
 * Whether a link leads into the API (`/api/…`, however written: `../api/`, `/%61pi/`, `/api/./`, `https:/api/`).
 * Content has nothing to link to there, and a link there acts as the viewer: `/api/<client>/logout` logs them out
 * whatever the link's words say (found by the thirty-first session's XSS probe; an image of it was refused long
 * ago, a link was not). Read from the site's root, so that a relative `api/…` counts too (content pages are one
 * level down).
 */
function leadsToApi(url: string): boolean {
  return SITES.some((site) => {
    let link: URL;
    try {
      link = new URL(url, site);
    } catch {
      return true;
    }
    // An address of another site, or of this one written in full, is not judged here.
    if (link.origin !== site.origin) return false;
    let decoded = link.pathname;
    try {
      decoded = decodeURIComponent(link.pathname);
    } catch {
      // Left encoded: the server would not decode it either.
    }
    return API_PATH.test(link.pathname) || API_PATH.test(decoded);
  });
}

/** DOMPurify's prefix for ids and names under SANITIZE_NAMED_PROPS. */
const NAMED_PREFIX = 'user-content-';

purify.addHook('afterSanitizeAttributes', (node) => {
  for (const name of URL_ATTRIBUTES) {
    const value = node.getAttribute(name);
    if (value === null) continue;
    // Browsers drop tabs and line breaks inside URLs and read a backslash as a slash: `/\evil.example`
    // and `/<tab>/evil.example` both lead off the site. They also drop control characters (U+0000–U+001F) and
    // spaces at either end, which `trim` keeps: `&#1;//evil.example` was checked as a relative path and followed
    // as a link to another site, `&#1;#root` kept its fragment unprefixed, and `&#1;/media/<other client>/…`
    // passed the import's check of media paths (found by the thirty-first session's XSS probe). The address is
    // checked as the browser reads it, and kept so.
    const url = browserUrl(value);
    const safe = EMBED_ATTRIBUTES.has(name)
      ? MEDIA_URL.test(url)
      : !url.includes('\\') && SAFE_URL.test(url) && !leadsToApi(url);
    if (!safe) node.removeAttribute(name);
    else if (url !== value) node.setAttribute(name, url);
  }
  node.removeAttribute('srcset');
  // Ids and names are prefixed (SANITIZE_NAMED_PROPS): in-page links follow them.
  const href = node.getAttribute('href');
  if (
    href !== null &&
    href.startsWith('#') &&
    href.length > 1 &&
    !href.startsWith(`#${NAMED_PREFIX}`)
  ) {
    node.setAttribute('href', `#${NAMED_PREFIX}${href.slice(1)}`);
  }
});

const CONFIG = {
  FORBID_TAGS: [
    'script',
    'style',
    'iframe',
    'frame',
    'frameset',
    'object',
    'embed',
    'form',
    'input',
    'button',
    'textarea',
    'select',
    'option',
    'link',
    'meta',
    'base',
    'svg',
    'math',
    'template',
    // Nested, each one larger: letters 600 px high (found by the twenty-third session's portal probe).
    'big',
  ],
  // `background` (table, td, th, tr) is fetched like an image src, but not checked as one: it would have every
  // viewer's browser request any URL of this site (`/api/…`) or beyond.
  // `class`: the portal's own styles are classes (styled-components names them by their rules, the same for every
  // client), and content wearing one took on its rules: a link in the card row's class covered the whole window
  // with its `::after`, so every click on the page, Log out included, opened the content's link (found by the
  // twenty-second session's portal probe). Content is styled by the portal's prose rules alone.
  // Sizes of the content's own (`<hr width=9000>`, `<td height=6000>`, `<table cellpadding=900>`) made pages
  // thousands of pixels wide and tall (found by the twenty-third session's portal probe): content is sized by the
  // portal's prose rules alone (images to the column's width).
  // `download`: content named the file a link saves, so an imported SVG (which may hold a script: sandboxed when
  // opened from this site) was handed to the viewer from the portal's own address as `Statement.html`, whose
  // script runs once it is opened from the downloads folder (found by the thirty-first session's XSS probe).
  FORBID_ATTR: [
    'download',
    'style',
    'class',
    'srcset',
    'formaction',
    'action',
    'background',
    'width',
    'height',
    'size',
    'border',
    'cellpadding',
    'cellspacing',
    'hspace',
    'vspace',
  ],
  ALLOW_DATA_ATTR: false,
  // Content's ids and names become `user-content-…`: an element of the content can then never stand in for
  // one of the portal's own (`root`, `portal-boot`, a label's target) nor shadow a global (DOM clobbering).
  SANITIZE_NAMED_PROPS: true,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

/**
 * Sanitises content HTML: no scripts, event handlers, styles, frames, forms, or javascript:/data: URLs.
 * Run at import and again before the HTML leaves the server.
 */
export function sanitizeHtml(html: string): string {
  const cached = sanitized.get(html);
  if (cached !== undefined) return cached;
  const clean = purify.sanitize(html, CONFIG);
  if (sanitized.size >= SANITIZED_ENTRIES) sanitized.delete(sanitized.keys().next().value ?? '');
  sanitized.set(html, clean);
  return clean;
}

/**
 * Sanitised output by input. Sanitising in jsdom takes milliseconds per fragment and a content answer holds
 * dozens; content only changes on import, and the output depends on the input alone. Oldest entries go first.
 */
const sanitized = new Map<string, string>();
const SANITIZED_ENTRIES = 2000;

/** The text of an HTML fragment (for search and plain-text mail). */
export function htmlToText(html: string): string {
  const fragment = JSDOM.fragment(`<div>${sanitizeHtml(html)}</div>`);
  return (fragment.textContent ?? '').replace(/\s+/g, ' ').trim();
}
