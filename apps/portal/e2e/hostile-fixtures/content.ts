import { copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../../../..');

/** A YAML scalar for any string (YAML reads JSON's double-quoted strings). */
const yaml = (value: string) => JSON.stringify(value);

/** How many related items the importer takes (MAX_RELATED in apps/api/src/repositories/content.ts). */
export const RELATED = 50;
/** A title of 300 characters (the longest an import takes: MAX_TITLE_CHARACTERS) with no space to break at. */
export const LONG_TITLE = `Long${'x'.repeat(296)}`;
/** A topic title of 300 characters with no space to break at. */
export const LONG_TOPIC = `Topic${'t'.repeat(295)}`;

/**
 * A content folder for a hostile client: its logo and video, an article with a 300-character title and a
 * 2,000-character summary (the longest an import takes), a body long enough to scroll and {@link RELATED} related
 * items (each with a title of about 300 characters and a 500-character summary, no spaces), and a topic with a
 * 300-character title.
 */
export async function buildHostileContent(prefix: string): Promise<string> {
  const folder = await clientFolder(prefix, 'Hostile', 'firm-hostile-content-');
  const related = Array.from({ length: RELATED }, (_, i) => `related-${i}`);
  const body = Array.from(
    { length: 40 },
    (_, i) => `Paragraph ${i + 1}. ${'Lorem ipsum dolor sit amet. '.repeat(12)}`,
  );
  await writeFile(
    path.join(folder, 'case-studies', 'long.md'),
    [
      '---',
      `title: ${yaml(LONG_TITLE)}`,
      `summary: ${yaml('s'.repeat(2000))}`,
      'image: media/poster.png',
      `related: ${JSON.stringify(related)}`,
      '---',
      '',
      ...body,
      '',
      '[The last link of the article](https://example.com/)',
      '',
    ].join('\n'),
  );
  for (const [index, slug] of related.entries()) {
    await writeFile(
      path.join(folder, 'insights', `${slug}.md`),
      [
        '---',
        `title: ${yaml(`Related ${index} ${'y'.repeat(285)}`)}`,
        `summary: ${yaml('z'.repeat(500))}`,
        '---',
        '',
        'Body.',
        '',
      ].join('\n'),
    );
  }
  await writeFile(
    path.join(folder, 'topics', 'long.md'),
    [
      '---',
      `title: ${yaml(LONG_TOPIC)}`,
      `pro_tip: ${yaml('p'.repeat(3000))}`,
      '---',
      '',
      'q'.repeat(5000),
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(folder, 'video.md'),
    [
      '---',
      `title: ${yaml(`Video ${'v'.repeat(294)}`)}`,
      'src: media/welcome.webm',
      'poster: media/poster.png',
      '---',
      '',
      'The video.',
      '',
    ].join('\n'),
  );
  return folder;
}

/** Combining marks drawn above a letter (U+0300–U+0314) and below it (U+0316–U+0333), one after another. */
const MARKS_ABOVE = Array.from({ length: 0x15 }, (_, i) => String.fromCharCode(0x300 + i)).join('');
const MARKS_BELOW = Array.from({ length: 0x1e }, (_, i) => String.fromCharCode(0x316 + i)).join('');

/** `letter` under (or over) `count` stacked combining marks. */
const stacked = (letter: string, marks: string, count: number) =>
  letter + marks.repeat(Math.ceil(count / marks.length)).slice(0, count);

/**
 * "Zalgo" text: a title of 300 characters (the longest an import takes) that is mostly combining marks stacked on
 * two letters, 140 above one and 140 below the other, drawn hundreds of pixels above and below its line.
 */
export const ZALGO_TITLE =
  `Zalgo ${stacked('H', MARKS_ABOVE, 140)} ${stacked('e', MARKS_BELOW, 140)} end`.slice(0, 300);

/** A title of plain text with accents above capitals and descenders, which nothing may clip. */
export const PLAIN_TITLE = 'Ångström quay: gypsy jig, pyjama query';

/**
 * A content folder whose every kind of title is {@link ZALGO_TITLE} or {@link PLAIN_TITLE}: a case study and an
 * insight of each (each case study related to both insights), a topic of each, and the video's.
 */
export async function buildZalgoContent(prefix: string): Promise<string> {
  const folder = await clientFolder(prefix, 'Zalgo', 'firm-zalgo-content-');
  const titles = { zalgo: ZALGO_TITLE, plain: PLAIN_TITLE };
  for (const [slug, title] of Object.entries(titles)) {
    await writeFile(
      path.join(folder, 'case-studies', `cs-${slug}.md`),
      [
        '---',
        `title: ${yaml(title)}`,
        `summary: ${yaml('A summary.')}`,
        'image: media/poster.png',
        `related: ${JSON.stringify(Object.keys(titles).map((related) => `in-${related}`))}`,
        '---',
        '',
        'Body.',
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(folder, 'insights', `in-${slug}.md`),
      [
        '---',
        `title: ${yaml(title)}`,
        `summary: ${yaml('A summary.')}`,
        '---',
        '',
        'Body.',
        '',
      ].join('\n'),
    );
    await writeFile(
      path.join(folder, 'topics', `${slug}.md`),
      ['---', `title: ${yaml(title)}`, '---', '', 'Body.', ''].join('\n'),
    );
  }
  await writeFile(
    path.join(folder, 'video.md'),
    [
      '---',
      `title: ${yaml(ZALGO_TITLE)}`,
      'src: media/welcome.webm',
      'poster: media/poster.png',
      '---',
      '',
      'The video.',
      '',
    ].join('\n'),
  );
  return folder;
}

/**
 * A new content folder (under a temporary name starting `tmpName`) for an open client `prefix` called `name`: its
 * four sub-folders, the demo's logo, video and poster, and its `client.yml`.
 */
async function clientFolder(prefix: string, name: string, tmpName: string): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), tmpName));
  for (const sub of ['case-studies', 'insights', 'topics', 'media']) {
    await mkdir(path.join(folder, sub), { recursive: true });
  }
  const demoMedia = path.join(repoRoot, 'content', 'demo', 'media');
  await copyFile(path.join(demoMedia, 'logo.svg'), path.join(folder, 'media', 'logo.svg'));
  await copyFile(path.join(demoMedia, 'welcome.webm'), path.join(folder, 'media', 'welcome.webm'));
  await copyFile(
    path.join(demoMedia, 'welcome-poster.png'),
    path.join(folder, 'media', 'poster.png'),
  );
  await writeFile(
    path.join(folder, 'client.yml'),
    `prefix: ${prefix}\nname: ${name}\nlogin: open\nbranding:\n  primary: '#0B4F6C'\n  accent: '#E8A33D'\n  logo: media/logo.svg\n`,
  );
  return folder;
}
