import { sql, type Kysely } from 'kysely';
import { newId } from '../crypto.js';
import type { ContentItemsTable, ContentType, Database, VideosTable } from '../db/schema.js';
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
 * Items of one type, in their order; with `search`, only those whose title, summary or text (never markup)
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
  return query.orderBy('sort_order').orderBy('title');
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
  return db.transaction().setIsolationLevel('repeatable read').execute(read);
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
