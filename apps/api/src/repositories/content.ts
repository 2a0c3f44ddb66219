import { sql, type Kysely } from 'kysely';
import { newId } from '../crypto.js';
import type { ContentItemsTable, ContentType, Database, VideosTable } from '../db/schema.js';
import { byCodePoint } from '../db/code-point-order.js';
import { searchFold, searchTextOf } from '../db/search-text.js';

export type ContentItemRow = ContentItemsTable;

/**
 * The most related items an article names. They are looked up together (`slug IN (…)`, one bound value each):
 * thousands would pass the database's limit on bound values. The import refuses more; an article answer reads
 * no more than these, whatever an older import stored.
 */
export const MAX_RELATED = 50;

export interface ContentItemInput {
  type: ContentType;
  slug: string;
  title: string;
  summary: string;
  bodyText: string;
  html: string;
  imageUrl: string | null;
  proTip: string | null;
  sortOrder: number;
  related: string[];
}

/**
 * Inserts or replaces the item with this client, type and slug (the importer is idempotent). One statement
 * (insert, or update on the unique client, type and slug): two imports of one client at the same moment both
 * succeed, where an update then insert let both insert and the second fail on the unique constraint.
 */
export async function upsertContentItem(
  db: Kysely<Database>,
  clientId: string,
  item: ContentItemInput,
  now: Date,
): Promise<void> {
  const values = {
    title: item.title,
    summary: item.summary,
    body_text: item.bodyText,
    search_text: searchTextOf(item.title, item.summary, item.bodyText),
    html: item.html,
    image_url: item.imageUrl,
    pro_tip: item.proTip,
    sort_order: item.sortOrder,
    related: JSON.stringify(item.related),
    updated_at: now.toISOString(),
  };
  await db
    .insertInto('content_items')
    .values({ id: newId(), client_id: clientId, type: item.type, slug: item.slug, ...values })
    .onConflict((oc) => oc.columns(['client_id', 'type', 'slug']).doUpdateSet(values))
    .execute();
}

/** The items a client has, by id, type and slug (what an import compares its folder with). */
export async function listContentKeys(
  db: Kysely<Database>,
  clientId: string,
): Promise<Pick<ContentItemRow, 'id' | 'type' | 'slug'>[]> {
  return db
    .selectFrom('content_items')
    .select(['id', 'type', 'slug'])
    .where('client_id', '=', clientId)
    .execute();
}

/** Ids deleted per statement: well under any database's limit on bound values. */
const DELETE_BATCH = 500;

/**
 * Deletes a client's items by id. Nothing else holds an item's id: related lists name slugs and are looked up
 * when an article is read (a slug no longer there is left out), search reads the item's own `search_text`, and
 * activity rows are the visitor's own words (a page or a search), kept as history.
 */
export async function deleteContentItems(
  db: Kysely<Database>,
  clientId: string,
  ids: readonly string[],
): Promise<void> {
  for (let i = 0; i < ids.length; i += DELETE_BATCH) {
    await db
      .deleteFrom('content_items')
      .where('client_id', '=', clientId)
      .where('id', 'in', ids.slice(i, i + DELETE_BATCH))
      .execute();
  }
}

/** The search folded as the stored text is, with LIKE wildcards escaped ("50%" means the characters). */
function likePattern(text: string): string {
  return `%${searchFold(text).replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The columns a listing needs: cards show no body, topics show their HTML. */
const CARD_COLUMNS = ['slug', 'type', 'title', 'summary', 'image_url'] as const;
const TOPIC_COLUMNS = ['slug', 'type', 'title', 'html', 'pro_tip'] as const;

export type ContentCardRow = Pick<ContentItemRow, (typeof CARD_COLUMNS)[number]>;
export type TopicRow = Pick<ContentItemRow, (typeof TOPIC_COLUMNS)[number]>;

/**
 * Items of one type, in their order (then by title, then by slug); with `search`, only those whose title, summary or text (never markup)
 * contains it, in any case or Unicode form (see `searchFold`).
 */
function listQuery(db: Kysely<Database>, clientId: string, type: ContentType, search?: string) {
  let query = db
    .selectFrom('content_items')
    .where('client_id', '=', clientId)
    .where('type', '=', type);
  if (search !== undefined && search !== '') {
    const pattern = likePattern(search);
    query = query.where(sql<boolean>`search_text like ${pattern} escape '\\'`);
  }
  // Ties of order by title, then slug (unique in a type), in code point order on both databases (code-point-order.ts):
  // items of one order and title came in no set order at all.
  return query
    .orderBy('sort_order')
    .orderBy(byCodePoint(db, 'title'))
    .orderBy(byCodePoint(db, 'slug'));
}

/** Case studies or insights as cards (no body), in their order; `search` as in {@link listTopics}. */
export async function listContent(
  db: Kysely<Database>,
  clientId: string,
  type: Exclude<ContentType, 'topic'>,
  search?: string,
): Promise<ContentCardRow[]> {
  return listQuery(db, clientId, type, search).select(CARD_COLUMNS).execute();
}

/**
 * The first `count` case studies or insights as cards, in their order: an article's related items when its author
 * named none. It read every card of the type (80 ms a view with 20,000 insights, noted by the twenty-third session).
 */
export async function firstContent(
  db: Kysely<Database>,
  clientId: string,
  type: Exclude<ContentType, 'topic'>,
  count: number,
): Promise<ContentCardRow[]> {
  return listQuery(db, clientId, type).select(CARD_COLUMNS).limit(count).execute();
}

/** Information topics with their HTML and pro tip, in their order, optionally filtered by `search`. */
export async function listTopics(
  db: Kysely<Database>,
  clientId: string,
  search?: string,
): Promise<TopicRow[]> {
  return listQuery(db, clientId, 'topic', search).select(TOPIC_COLUMNS).execute();
}

/**
 * Runs `read` in one read-only snapshot of the database: what it reads with the handle it is given is as one
 * moment saw it, so a content import committing meanwhile (the staff tool, another instance) is either wholly
 * in it or wholly out (`repeatable read` on PostgreSQL, where each statement would otherwise see the latest
 * commit; on SQLite a transaction reads from the one snapshot its first statement took).
 */
export function inOneSnapshot<T>(
  db: Kysely<Database>,
  read: (snapshot: Kysely<Database>) => Promise<T>,
): Promise<T> {
  // Read only: on SQLite it then takes no write lock (sqlite-dialect.ts begins every other transaction immediate).
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(read);
}

/** A client's whole hub, or a search of it, as of one moment, with the content version it belongs to. */
export async function readHub(
  db: Kysely<Database>,
  clientId: string,
  search?: string,
): Promise<{
  contentVersion: number;
  insights: ContentCardRow[];
  caseStudies: ContentCardRow[];
  topics: TopicRow[];
}> {
  return inOneSnapshot(db, async (snapshot) => {
    const { content_version: contentVersion } = await snapshot
      .selectFrom('clients')
      .select('content_version')
      .where('id', '=', clientId)
      .executeTakeFirstOrThrow();
    const insights = await listContent(snapshot, clientId, 'insight', search);
    const caseStudies = await listContent(snapshot, clientId, 'case_study', search);
    const topics = await listTopics(snapshot, clientId, search);
    return { contentVersion: Number(contentVersion), insights, caseStudies, topics };
  });
}

export async function findContentItem(
  db: Kysely<Database>,
  clientId: string,
  type: ContentType,
  slug: string,
): Promise<ContentItemRow | undefined> {
  return db
    .selectFrom('content_items')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('type', '=', type)
    .where('slug', '=', slug)
    .executeTakeFirst();
}

export async function findContentBySlugs(
  db: Kysely<Database>,
  clientId: string,
  slugs: string[],
): Promise<ContentItemRow[]> {
  if (slugs.length === 0) return [];
  return db
    .selectFrom('content_items')
    .selectAll()
    .where('client_id', '=', clientId)
    .where('type', 'in', ['case_study', 'insight'])
    .where('slug', 'in', slugs)
    .execute();
}

export type Video = Omit<VideosTable, 'client_id' | 'updated_at'>;

export async function upsertVideo(
  db: Kysely<Database>,
  clientId: string,
  video: Video,
  now: Date,
): Promise<void> {
  await db
    .insertInto('videos')
    .values({ client_id: clientId, ...video, updated_at: now.toISOString() })
    .onConflict((oc) =>
      oc.column('client_id').doUpdateSet({ ...video, updated_at: now.toISOString() }),
    )
    .execute();
}

export async function findVideo(
  db: Kysely<Database>,
  clientId: string,
): Promise<Video | undefined> {
  return db
    .selectFrom('videos')
    .select(['title', 'src', 'poster', 'captions', 'description'])
    .where('client_id', '=', clientId)
    .executeTakeFirst();
}

/** Deletes a client's video; answers whether there was one. */
export async function deleteVideo(db: Kysely<Database>, clientId: string): Promise<boolean> {
  const result = await db.deleteFrom('videos').where('client_id', '=', clientId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Every stored text of a client that may name its media (`/media/<prefix>/<file>`): items' images, bodies and
 * pro tips, the video and the branding (the logo).
 */
export async function mediaReferenceTexts(
  db: Kysely<Database>,
  clientId: string,
): Promise<string[]> {
  const texts: string[] = [];
  const items = await db
    .selectFrom('content_items')
    .select(['image_url', 'html', 'pro_tip'])
    .where('client_id', '=', clientId)
    .execute();
  for (const item of items) texts.push(item.image_url ?? '', item.html, item.pro_tip ?? '');
  const video = await findVideo(db, clientId);
  if (video !== undefined) {
    texts.push(video.src, video.poster ?? '', video.captions ?? '', video.description);
  }
  const client = await db
    .selectFrom('clients')
    .select('branding')
    .where('id', '=', clientId)
    .executeTakeFirst();
  if (client !== undefined) texts.push(client.branding);
  return texts;
}
