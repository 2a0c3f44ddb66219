/**
 * The shapes of the hub's content answers (articles, topics, the video), checked as `answer-shapes.ts` says: apart
 * from it, so that the login page, which reads none of them, does not load them.
 */
import { CONTENT_TYPES } from '@/types/api';
import type { Article, Content, ContentItem, Topic, Video } from '@/types/api';

import { arrayOf, hasText, isObject, isTextOrNull } from './answer-shapes';

/** An object with an id, a title, the text field `text`, a content type and an image address (or none). */
const isCard = (value: unknown, text: string): value is Record<string, unknown> =>
  hasText(value, ['id', 'title', text]) &&
  (CONTENT_TYPES as readonly unknown[]).includes(value.type) &&
  isTextOrNull(value.image_url);

function isContentItem(value: unknown): value is ContentItem {
  return isCard(value, 'description_text');
}

function isTopic(value: unknown): value is Topic {
  return hasText(value, ['id', 'title', 'description']) && isTextOrNull(value.pro_tip);
}

/** GET /api/{client}/content, with or without `?search=`. */
export function isContent(value: unknown): value is Content {
  return (
    isObject(value) &&
    arrayOf(value.insights, isContentItem) &&
    arrayOf(value.case_studies, isContentItem) &&
    arrayOf(value.insurance, isTopic)
  );
}

/** GET /api/{client}/article. */
export function isArticle(value: unknown): value is Article {
  return isCard(value, 'description') && arrayOf(value.related, isContentItem);
}

/** GET /api/{client}/video. */
export function isVideo(value: unknown): value is Video {
  return (
    hasText(value, ['title', 'src', 'description']) &&
    isTextOrNull(value.poster) &&
    isTextOrNull(value.captions)
  );
}
