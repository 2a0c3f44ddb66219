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
    | 'clobbering';
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
];
