/**
 * Accessibility repairs for content HTML, applied where the portal renders it (SafeHtml). The API's sanitiser keeps
 * content safe; it does not keep it readable: an image whose address it refused stays as a nameless broken `<img>`,
 * and markup staff (or a pasted page) bring along can steal keyboard focus (`tabindex="1"`), hide a link from
 * screen readers while it stays focusable (`aria-hidden`), or from all but the eye (`inert`), relabel the portal's
 * own fields (`<label for>`, `aria-labelledby`), add a second `main`, or write white on white (`<font color>`).
 * Each of these fails WCAG on the page that shows it, so the portal takes them out, keeping the text.
 */

/**
 * Elements replaced by their children: landmarks and widgets of the page's own, motion, colour, and size. `nobr`
 * keeps a line from ever wrapping: found by the twenty-ninth session's portal probe, one made the page 4,130 px
 * wide (WCAG 1.4.10 reflow).
 */
const UNWRAP = new Set([
  'main',
  // The page's navigation and search are the portal's: two lists of links in content were two unnamed
  // navigation landmarks beside its own (axe's landmark-unique; found by the twenty-ninth session's portal probe).
  'nav',
  'search',
  'dialog',
  'label',
  'marquee',
  'blink',
  'font',
  'map',
  'big',
  'nobr',
]);
/** Elements with nothing to keep once repaired (an image map's areas lose their map). */
const REMOVE = new Set(['area']);
/**
 * Attributes that change focus order, roles, relations to the portal's own elements (ids in content are prefixed,
 * so a reference can only ever reach the portal's), the portal's own styles, playback, colours, or sizes. `aria-*`
 * goes too.
 */
const DROP_ATTRIBUTES = new Set([
  // The portal's own styles are classes: content wearing one takes on its rules (a link covering the page).
  'class',
  // Keeps visible text and links from screen readers, the keyboard and the mouse (found by the twenty-ninth
  // session's portal probe).
  'inert',
  'tabindex',
  'accesskey',
  'role',
  'for',
  'headers',
  'usemap',
  'autoplay',
  'color',
  'bgcolor',
  'text',
  'link',
  'vlink',
  'alink',
  // Sizes of the content's own: `<hr width=9000>`, `<td height=6000>` made pages thousands of pixels wide and
  // tall, nested `<big>` (unwrapped above) letters 600 px high (found by the twenty-third session's portal probe).
  'width',
  'height',
  'size',
  'border',
  'cellpadding',
  'cellspacing',
  'hspace',
  'vspace',
]);
/** What a list may hold directly besides its items (elements that draw nothing). */
const LIST_EXTRAS = new Set(['script', 'template']);
const LIST_ITEMS = new Set(['li']);
/** A definition list's terms and descriptions; the list may also hold them in `div` groups. */
const DEFINITION_ITEMS = new Set(['dt', 'dd']);
const DEFINITION_CHILDREN = new Set([...DEFINITION_ITEMS, 'div']);

let languageNames: Intl.DisplayNames | null | undefined;

/** Whether `tag` is a language tag whose language is known, as screen readers need (`fr`, `en-GB`; not `xx`). */
function knownLanguage(tag: string): boolean {
  if (tag === '') return false;
  languageNames ??=
    typeof Intl.DisplayNames === 'function'
      ? new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' })
      : null;
  try {
    const [canonical] = Intl.getCanonicalLocales(tag);
    if (canonical === undefined) return false;
    return languageNames === null || languageNames.of(canonical.split('-')[0] ?? '') !== undefined;
  } catch {
    // Not a well-formed language tag.
    return false;
  }
}

/** Whether an element has something a screen reader can announce: text, or an image with a text alternative. */
function hasName(element: Element): boolean {
  if ((element.textContent ?? '').trim() !== '') return true;
  return [...element.querySelectorAll('img[alt]')].some(
    (image) => (image.getAttribute('alt') ?? '').trim() !== '',
  );
}

/** Replaces `element` by a new `<tag>` holding its attributes and children. */
function rename(element: Element, tag: string): Element {
  const replacement = element.ownerDocument.createElement(tag);
  for (const attribute of element.attributes) {
    replacement.setAttribute(attribute.name, attribute.value);
  }
  replacement.append(...element.childNodes);
  element.replaceWith(replacement);
  return replacement;
}

/**
 * The children of `parent` that it may not hold: elements other than `allowed` (and those that draw nothing), and
 * text that is not blank.
 */
function strayChildren(parent: Element, allowed: ReadonlySet<string>): ChildNode[] {
  return [...parent.childNodes].filter((child) =>
    child.nodeType === child.ELEMENT_NODE
      ? !allowed.has((child as Element).localName) && !LIST_EXTRAS.has((child as Element).localName)
      : child.nodeType === child.TEXT_NODE && (child.textContent ?? '').trim() !== '',
  );
}

/** Wraps `node` in a new `<tag>` in place. */
function wrap(node: Node, tag: string) {
  const document = node.ownerDocument ?? (node as Document);
  const wrapper = document.createElement(tag);
  node.parentNode?.replaceChild(wrapper, node);
  wrapper.append(node);
}

/**
 * Repairs content HTML in place (see the module comment). Text is never lost: unwrapped elements leave their
 * children, and an image the sanitiser left without an address leaves its alt text.
 */
export function repairContent(root: DocumentFragment) {
  for (const element of [...root.querySelectorAll('*')]) {
    const tag = element.localName;
    if (REMOVE.has(tag)) {
      element.remove();
      continue;
    }
    for (const { name } of [...element.attributes]) {
      if (DROP_ATTRIBUTES.has(name) || name.startsWith('aria-')) element.removeAttribute(name);
    }
    // An aside's title names its landmark, and content's notes may share one (landmark-unique).
    if (tag === 'aside') element.removeAttribute('title');
    const lang = element.getAttribute('lang');
    if (lang !== null && !knownLanguage(lang.trim())) element.removeAttribute('lang');
    if (UNWRAP.has(tag)) element.replaceWith(...element.childNodes);
  }

  for (const image of [...root.querySelectorAll('img')]) {
    if ((image.getAttribute('src') ?? '').trim() === '') {
      // Nothing to show (the sanitiser refused its address): its words stay, the broken image goes.
      image.replaceWith((image.getAttribute('alt') ?? '').trim());
    } else if (!image.hasAttribute('alt')) {
      // No text alternative given: decorative, rather than announced by its file name.
      image.setAttribute('alt', '');
    }
  }
  // A link into the portal's own API acts as the viewer: `/api/<client>/logout` logs them out, whatever the link's
  // words say. The API's sanitiser drops relative ones, but it does not know the site's address, so a link written
  // in full (`https://<the portal>/api/<client>/logout`) passed it (found by the thirty-first session's XSS probe).
  // Here the address is known; the words stay.
  for (const link of [...root.querySelectorAll('a[href]')]) {
    if (leadsToApi(link.getAttribute('href') ?? '')) link.replaceWith(...link.childNodes);
  }
  // A link, heading or table header with nothing to announce is a stop (or a landmark) with no name.
  for (const link of [...root.querySelectorAll('a')]) {
    if (!hasName(link)) link.replaceWith(...link.childNodes);
  }
  for (const heading of [...root.querySelectorAll('h1, h2, h3, h4, h5, h6')]) {
    if (!hasName(heading)) heading.replaceWith(...heading.childNodes);
  }
  for (const header of [...root.querySelectorAll('th')]) {
    if (!hasName(header)) rename(header, 'td');
  }
  // A summary is one control, which opens its details: a link or a details in it was a control inside a control
  // (axe's nested-interactive; found by the twenty-ninth session's portal probe). Their words stay in it.
  for (const summary of [...root.querySelectorAll('details > summary')]) {
    for (const link of [...summary.querySelectorAll('a[href]')]) {
      link.replaceWith(...link.childNodes);
    }
    for (const inner of [...summary.querySelectorAll('details, summary')]) rename(inner, 'div');
  }
  for (const summary of [...root.querySelectorAll('summary')]) {
    // What the browser itself shows for a summary without text.
    if (!hasName(summary)) summary.append('Details');
  }

  // Lists hold items only, and items sit in lists (screen readers count them).
  for (const list of [...root.querySelectorAll('ul, ol')]) {
    for (const stray of strayChildren(list, LIST_ITEMS)) wrap(stray, 'li');
  }
  for (const item of [...root.querySelectorAll('li')]) {
    const parent = item.parentElement?.localName;
    if (parent !== 'ul' && parent !== 'ol' && parent !== 'menu') wrap(item, 'ul');
  }
  // Definition lists hold terms and descriptions, directly or in `div` groups of them, and those sit in
  // definition lists. Found by the eighteenth session's portal probe: only the list's own children were looked
  // at, so `<dl><dt>Term</dt><div>text</div></dl>` (a group of text, not of terms and descriptions) and text
  // beside the terms were kept, failing axe's definition-list. What a list of terms holds besides them is a
  // description, as what a list holds besides its items is an item; a "list" with no term or description at
  // all is none.
  for (const list of [...root.querySelectorAll('dl')]) {
    const groups = [...list.children].filter((child) => child.localName === 'div');
    const holdsItems = (parent: Element) =>
      [...parent.children].some((child) => DEFINITION_ITEMS.has(child.localName));
    const strays = strayChildren(list, DEFINITION_CHILDREN);
    if (!holdsItems(list) && !groups.some(holdsItems)) {
      if (
        strays.length > 0 ||
        groups.some((group) => strayChildren(group, DEFINITION_ITEMS).length > 0)
      ) {
        rename(list, 'div');
      }
      continue;
    }
    for (const group of groups) {
      const groupStrays = strayChildren(group, DEFINITION_ITEMS);
      if (groupStrays.length === 0) continue;
      // A group of neither terms nor descriptions is itself a description (the words under a term).
      if (holdsItems(group)) for (const stray of groupStrays) wrap(stray, 'dd');
      else rename(group, 'dd');
    }
    for (const stray of strays) wrap(stray, 'dd');
  }
  for (const term of [...root.querySelectorAll('dt, dd')]) {
    const parent = term.parentElement;
    const inList =
      parent?.localName === 'dl' ||
      (parent?.localName === 'div' && parent.parentElement?.localName === 'dl');
    if (!inList) rename(term, 'div');
  }

  // A table wider than the column scrolls sideways in a box of its own, rather than the whole page on a phone
  // (WCAG 1.4.10 reflow; left alone by the eighteenth session's review). The box can be reached and scrolled with
  // the keyboard (axe's scrollable-region-focusable): SafeHtml keeps it a tab stop only while it scrolls. It is
  // named after the table's caption; a table with none, after the heading it sits under ("Table: Premiums"), and
  // several of those with no heading by their place ("Table 2"). Left alone by the nineteenth session: every
  // uncaptioned box was "Table", so a screen reader's list of them could not tell them apart.
  const tables: Element[] = [...root.querySelectorAll('table')].filter(
    (table) => !table.parentElement?.closest('table'),
  );
  let heading = '';
  const names = new Map<Element, { name: string; caption: boolean }>();
  for (const element of root.querySelectorAll('h1, h2, h3, h4, h5, h6, table')) {
    if (element.closest('table') !== null && element.localName !== 'table') continue;
    if (element.localName !== 'table') {
      heading = oneLine(element.textContent);
      continue;
    }
    if (!tables.includes(element)) continue;
    const caption = oneLine(element.querySelector(':scope > caption')?.textContent);
    if (caption !== '') names.set(element, { name: caption, caption: true });
    else
      names.set(element, { name: heading === '' ? 'Table' : `Table: ${heading}`, caption: false });
  }
  // Names given more than once are numbered by their place among those that share them ("Table 2: Premiums",
  // "Table 2", a caption's "Rates (2)"): found by the twentieth session's probe of its own changes, several
  // tables under one heading all read "Table: Premiums".
  const counts = new Map<string, number>();
  for (const { name } of names.values()) counts.set(name, (counts.get(name) ?? 0) + 1);
  const seen = new Map<string, number>();
  const named = new Map<Element, string>();
  for (const [table, { name, caption }] of names) {
    if (counts.get(name) === 1) {
      named.set(table, name);
      continue;
    }
    const place = (seen.get(name) ?? 0) + 1;
    seen.set(name, place);
    named.set(table, caption ? `${name} (${place})` : name.replace(/^Table/, `Table ${place}`));
  }
  for (const table of tables) {
    let box = table.parentElement;
    if (!(box?.localName === 'div' && box.hasAttribute(TABLE_BOX) && box.children.length === 1)) {
      wrap(table, 'div');
      box = table.parentElement as HTMLElement;
      box.setAttribute(TABLE_BOX, '');
    }
    box.setAttribute('role', 'group');
    box.setAttribute('tabindex', '0');
    box.setAttribute('aria-label', named.get(table) ?? 'Table');
  }
}

/** The portal's API, as the server's router reads a path (`/%61pi/…` is `/api/…`). */
const API_PATH = /^\/api(?:\/|$)/i;

/** Whether `href`, read from this page, leads into this site's API. */
function leadsToApi(href: string): boolean {
  let url: URL;
  try {
    url = new URL(href, window.location.href);
  } catch {
    return false;
  }
  if (url.origin !== window.location.origin) return false;
  let decoded = url.pathname;
  try {
    decoded = decodeURIComponent(url.pathname);
  } catch {
    // Left as written: the server does not decode it either.
  }
  return API_PATH.test(url.pathname) || API_PATH.test(decoded);
}

/** Text as one line: white space runs made one space, none at either end. */
function oneLine(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

/** Marks the box a content table scrolls in (its style is in SafeHtml). */
export const TABLE_BOX = 'data-table-box';
