/**
 * Checks that an ok answer has the shape the API gives (src/types/api.ts): a JSON object of another shape (a
 * proxy's or another version's answer, a field of the wrong type) crashed the page that drew it, showing the
 * script's own error ("Cannot read properties of null (reading 'length')") without a Retry, or drew a nameless
 * button (found by the nineteenth session's portal probe). With a check, such an answer is an
 * `UnreadableAnswerError`, shown in plain words with the page's Retry. Fields beyond these are allowed.
 */
import { CONTENT_TYPES } from '@/types/api';
import type {
  Article,
  Client,
  Content,
  ContentItem,
  LoginResponse,
  Topic,
  Video,
} from '@/types/api';

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isText = (value: unknown): value is string => typeof value === 'string';
const isTextOrNull = (value: unknown): value is string | null => value === null || isText(value);
const arrayOf = <T>(value: unknown, isItem: (item: unknown) => item is T): value is T[] =>
  Array.isArray(value) && value.every((item) => isItem(item));
/** An object whose `names` are all text. */
const hasText = (value: unknown, names: readonly string[]): value is Fields =>
  isObject(value) && names.every((name) => isText(value[name]));

/** An object with an id, a title, the text field `text`, a content type and an image address (or none). */
const isCard = (value: unknown, text: string): value is Fields =>
  hasText(value, ['id', 'title', text]) &&
  (CONTENT_TYPES as readonly unknown[]).includes(value.type) &&
  isTextOrNull(value.image_url);

function isContentItem(value: unknown): value is ContentItem {
  return isCard(value, 'description_text');
}

function isTopic(value: unknown): value is Topic {
  return hasText(value, ['id', 'title', 'description']) && isTextOrNull(value.pro_tip);
}

/** GET /api/{client}. */
export function isClient(value: unknown): value is Client {
  return (
    hasText(value, ['prefix', 'name', 'first_name', 'last_name', 'email', 'phone']) &&
    typeof value.logged_in === 'boolean' &&
    (value.login_policy === 'open' || value.login_policy === 'magic-link') &&
    hasText(value.branding, ['primary', 'accent']) &&
    isTextOrNull(value.branding.logo_url) &&
    hasText(value.contact, ['phone', 'email']) &&
    hasText(value.footer, ['blurb', 'regulatory'])
  );
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

/** POST /api/{client}/login. */
export function isLoginResponse(value: unknown): value is LoginResponse {
  return isObject(value) && (isText(value.redirect) || value.redirect === false);
}
