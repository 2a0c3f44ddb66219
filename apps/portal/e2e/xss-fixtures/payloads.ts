/**
 * Our own XSS payload set, by class. Every payload that runs calls `__xss('<id>')` (a binding the test exposes in
 * every frame) or `alert()` (a dialog the test listens for), so an execution cannot go unnoticed.
 *
 * Sources of the classes: the OWASP XSS filter evasion cheat sheet, PortSwigger's XSS cheat sheet and the
 * published DOMPurify mutation-XSS bypasses (2.0.0 form/math, 2.0.17 svg/style, 2.2.x namespace confusion).
 */
export interface Payload {
  id: string;
  kind:
    | 'script'
    | 'event-handler'
    | 'url'
    | 'svg'
    | 'mathml'
    | 'srcdoc'
    | 'mutation'
    | 'broken-nesting'
    | 'markdown'
    | 'css'
    | 'clobbering'
    | 'same-site-request';
  /** `{{prefix}}` stands for the test client's prefix. */
  html: string;
}

const hook = (id: string) => `__xss('${id}')`;

export const PAYLOADS: Payload[] = [
  // Plain script elements, in every spelling a parser accepts.
  { id: 'script', kind: 'script', html: `<script>${hook('script')}</script>` },
  {
    id: 'script-src-data',
    kind: 'script',
    html: `<script src="data:text/javascript,${hook('script-src-data')}"></script>`,
  },
  { id: 'script-upper', kind: 'script', html: `<SCRIPT>${hook('script-upper')}</SCRIPT>` },
  {
    id: 'script-attr-break',
    kind: 'script',
    html: `"><script>${hook('script-attr-break')}</script>`,
  },
  {
    id: 'script-in-title',
    kind: 'script',
    html: `</title><script>${hook('script-in-title')}</script>`,
  },

  // Event handlers on elements that fire without a user.
  {
    id: 'img-onerror',
    kind: 'event-handler',
    html: `<img src="x" onerror="${hook('img-onerror')}">`,
  },
  {
    id: 'img-onerror-eval',
    kind: 'event-handler',
    html: `<img src=x:alert(1) onerror=eval(src) alt=0>`,
  },
  { id: 'body-onload', kind: 'event-handler', html: `<body onload="${hook('body-onload')}">` },
  {
    id: 'details-ontoggle',
    kind: 'event-handler',
    html: `<details open ontoggle="${hook('details-ontoggle')}"><summary>x</summary></details>`,
  },
  {
    id: 'input-autofocus',
    kind: 'event-handler',
    html: `<input autofocus onfocus="${hook('input-autofocus')}">`,
  },
  {
    id: 'focusin',
    kind: 'event-handler',
    html: `<a id="xss-focus" tabindex="1" onfocusin="${hook('focusin')}">focus</a>`,
  },
  {
    id: 'video-source',
    kind: 'event-handler',
    html: `<video><source onerror="${hook('video-source')}"></video>`,
  },
  {
    id: 'audio-onerror',
    kind: 'event-handler',
    html: `<audio src="x" onerror="${hook('audio-onerror')}"></audio>`,
  },
  {
    id: 'marquee',
    kind: 'event-handler',
    html: `<marquee onstart="${hook('marquee')}">x</marquee>`,
  },
  {
    id: 'hover',
    kind: 'event-handler',
    html: `<div onmouseover="${hook('hover')}" style="position:fixed;inset:0">hover</div>`,
  },
  {
    id: 'img-entity-handler',
    kind: 'event-handler',
    html: `<img src=x onerror=&#95;&#95;xss('img-entity-handler')>`,
  },

  // javascript:, data: and vbscript: URLs, obfuscated.
  { id: 'a-js', kind: 'url', html: `<a href="javascript:${hook('a-js')}">link</a>` },
  { id: 'a-js-case', kind: 'url', html: `<a href="  JaVaScRiPt:${hook('a-js-case')}">link</a>` },
  { id: 'a-js-tab', kind: 'url', html: `<a href="jav&#x09;ascript:${hook('a-js-tab')}">link</a>` },
  {
    id: 'a-js-entity',
    kind: 'url',
    html: `<a href="&#106;&#97;vascript:${hook('a-js-entity')}">link</a>`,
  },
  {
    id: 'a-data',
    kind: 'url',
    html: `<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">link</a>`,
  },
  { id: 'a-vbscript', kind: 'url', html: `<a href="vbscript:msgbox(1)">link</a>` },
  { id: 'iframe-js', kind: 'url', html: `<iframe src="javascript:${hook('iframe-js')}"></iframe>` },
  {
    id: 'object-data',
    kind: 'url',
    html: `<object data="javascript:${hook('object-data')}"></object>`,
  },
  {
    id: 'embed-data',
    kind: 'url',
    html: `<embed src="data:text/html,<script>parent.${hook('embed-data')}</script>">`,
  },
  {
    id: 'form-action',
    kind: 'url',
    html: `<form action="javascript:${hook('form-action')}"><button>go</button></form>`,
  },
  {
    id: 'button-formaction',
    kind: 'url',
    html: `<button formaction="javascript:${hook('button-formaction')}">go</button>`,
  },
  {
    id: 'meta-refresh',
    kind: 'url',
    html: `<meta http-equiv="refresh" content="0;url=javascript:${hook('meta-refresh')}">`,
  },
  { id: 'base-href', kind: 'url', html: `<base href="javascript:${hook('base-href')}//">` },
  {
    id: 'link-import',
    kind: 'url',
    html: `<link rel="import" href="data:text/html,<script>${hook('link-import')}</script>">`,
  },

  // SVG.
  { id: 'svg-onload', kind: 'svg', html: `<svg onload="${hook('svg-onload')}"></svg>` },
  { id: 'svg-script', kind: 'svg', html: `<svg><script>${hook('svg-script')}</script></svg>` },
  {
    id: 'svg-xlink',
    kind: 'svg',
    html: `<svg><a xlink:href="javascript:${hook('svg-xlink')}"><text x="20" y="20">x</text></a></svg>`,
  },
  {
    id: 'svg-animate',
    kind: 'svg',
    html: `<svg><animate onbegin="${hook('svg-animate')}" attributeName="x" dur="1s"></animate></svg>`,
  },
  {
    id: 'svg-set',
    kind: 'svg',
    html: `<svg><a><set attributeName="href" to="javascript:${hook('svg-set')}"></set><text x="0" y="20">x</text></a></svg>`,
  },
  {
    id: 'svg-foreign',
    kind: 'svg',
    html: `<svg><foreignObject><img src=x onerror="${hook('svg-foreign')}"></foreignObject></svg>`,
  },
  {
    id: 'svg-use-data',
    kind: 'svg',
    html: `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='${hook('svg-use-data')}'/></svg>#x"></use></svg>`,
  },

  // MathML.
  {
    id: 'math-href',
    kind: 'mathml',
    html: `<math href="javascript:${hook('math-href')}">x</math>`,
  },
  {
    id: 'math-maction',
    kind: 'mathml',
    html: `<math><maction actiontype="statusline" xlink:href="javascript:${hook('math-maction')}">x</maction></math>`,
  },
  {
    id: 'math-mglyph',
    kind: 'mathml',
    html: `<math><mtext><table><mglyph><style><img src=x onerror="${hook('math-mglyph')}">`,
  },

  // iframe srcdoc.
  {
    id: 'srcdoc',
    kind: 'srcdoc',
    html: `<iframe srcdoc="<script>parent.${hook('srcdoc')}</script>"></iframe>`,
  },
  {
    id: 'srcdoc-entity',
    kind: 'srcdoc',
    html: `<iframe srcdoc="&lt;img src=x onerror=parent.${hook('srcdoc-entity')}&gt;"></iframe>`,
  },

  // Mutation XSS: markup that changes meaning when serialised and parsed again.
  {
    id: 'mx-noscript',
    kind: 'mutation',
    html: `<noscript><p title="</noscript><img src=x onerror=${hook('mx-noscript')}>"></noscript>`,
  },
  {
    id: 'mx-style',
    kind: 'mutation',
    html: `<style><img src=x onerror="${hook('mx-style')}"></style>`,
  },
  {
    id: 'mx-template',
    kind: 'mutation',
    html: `<template><img src=x onerror="${hook('mx-template')}"></template>`,
  },
  {
    id: 'mx-template-nested',
    kind: 'mutation',
    html: `<div><template><style></template><img src=x onerror="${hook('mx-template-nested')}"></style></div>`,
  },
  {
    id: 'mx-form-math',
    kind: 'mutation',
    html: `<form><math><mtext></form><form><mglyph><style></math><img src onerror="${hook('mx-form-math')}">`,
  },
  {
    id: 'mx-svg-style',
    kind: 'mutation',
    html: `<svg></p><style><a id="</style><img src=1 onerror=${hook('mx-svg-style')}>">`,
  },
  {
    id: 'mx-math-style',
    kind: 'mutation',
    html: `<math><mi><table><mi><style><img src=x onerror=${hook('mx-math-style')}></style></mi></table></mi></math>`,
  },
  {
    id: 'mx-textarea',
    kind: 'mutation',
    html: `<textarea><img title="</textarea><img src=x onerror=${hook('mx-textarea')}>"></textarea>`,
  },
  {
    id: 'mx-xmp',
    kind: 'mutation',
    html: `<xmp><img title="</xmp><img src=x onerror=${hook('mx-xmp')}>"></xmp>`,
  },
  {
    id: 'mx-title',
    kind: 'mutation',
    html: `<title><img title="</title><img src=x onerror=${hook('mx-title')}>"></title>`,
  },
  { id: 'mx-comment', kind: 'mutation', html: `<!--><img src=x onerror=${hook('mx-comment')}>-->` },
  {
    id: 'mx-cdata',
    kind: 'mutation',
    html: `<svg><![CDATA[><img src=x onerror=${hook('mx-cdata')}>]]></svg>`,
  },
  {
    id: 'mx-select',
    kind: 'mutation',
    html: `<select><template><style><!--</style><a rel="--></style></template></select><img src=x onerror=${hook('mx-select')}>">`,
  },
  {
    id: 'mx-heading',
    kind: 'mutation',
    html: `<h2>Heading</h2><noscript><h3 title="</noscript><img src=x onerror=${hook('mx-heading')}>">x</h3></noscript>`,
  },

  // Broken nesting and tag splitting.
  {
    id: 'unclosed-img',
    kind: 'broken-nesting',
    html: `<img src=x onerror="${hook('unclosed-img')}"`,
  },
  { id: 'double-lt', kind: 'broken-nesting', html: `<<script>${hook('double-lt')}//<</script>` },
  {
    id: 'split-tag',
    kind: 'broken-nesting',
    html: `<scr<script>ipt>${hook('split-tag')}</scr</script>ipt>`,
  },
  {
    id: 'nested-quote',
    kind: 'broken-nesting',
    html: `<a title="<img src=x onerror=${hook('nested-quote')}>">x</a>`,
  },
  {
    id: 'slash-attr',
    kind: 'broken-nesting',
    html: `<img/src="x"/onerror="${hook('slash-attr')}">`,
  },
  {
    id: 'table-break',
    kind: 'broken-nesting',
    html: `<table><tr><td><img src=x onerror=${hook('table-break')}></td></tr></table></p></div></section>`,
  },

  // Markdown's own ways to make links and HTML.
  { id: 'md-link', kind: 'markdown', html: `[click](javascript:${hook('md-link')})` },
  { id: 'md-img', kind: 'markdown', html: `![x](javascript:${hook('md-img')})` },
  { id: 'md-autolink', kind: 'markdown', html: `<javascript:${hook('md-autolink')}>` },
  { id: 'md-ref', kind: 'markdown', html: `[ref][x]\n\n[x]: javascript:${hook('md-ref')}` },
  {
    id: 'md-data',
    kind: 'markdown',
    html: `[data](data:text/html,<script>${hook('md-data')}</script>)`,
  },

  // CSS and DOM clobbering.
  {
    id: 'css-url',
    kind: 'css',
    html: `<div style="background:url(javascript:${hook('css-url')})">x</div>`,
  },
  {
    id: 'css-expression',
    kind: 'css',
    html: `<div style="width:expression(${hook('css-expression')})">x</div>`,
  },
  {
    id: 'clobber-root',
    kind: 'clobbering',
    html: `<img name="getElementById"><form id="root"><input name="innerHTML"></form><a id="__xss" href="x">x</a>`,
  },
  {
    id: 'clobber-boot',
    kind: 'clobbering',
    html: `<p id="portal-boot">{"modules":["data:text/javascript,${hook('clobber-boot')}"]}</p><div id="root"></div>`,
  },
  // Requests the page would make as the viewer, to this very site: no script runs, but the viewer is logged out.
  {
    id: 'same-site-logout',
    kind: 'same-site-request',
    html: `<img src="/api/{{prefix}}/logout" alt="a"><video poster="/api/{{prefix}}/logout"></video><a href="/\\evil.example/">off-site</a>`,
  },
];
