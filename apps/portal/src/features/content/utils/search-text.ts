import { CONTROL_CHARACTER, FORMAT_CONTROL, isBlank } from '@/lib/text';

/** The longest search the API takes (GET /api/{client}/content: `search` of at most 200 characters). */
export const MAX_SEARCH_LENGTH = 200;

/**
 * What a search drops: control characters (NUL, ESC…) and the invisible text-direction marks and format controls
 * (U+200F, U+202E and the like), which show nothing, match no word, and would have the search find nothing for the
 * text it shows (and the activity record refuse it).
 */
const UNSEARCHABLE = new RegExp(`[${CONTROL_CHARACTER}${FORMAT_CONTROL}]`, 'g');

/** Tabs and line breaks (a pasted paragraph): a search is one line, so each is a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * The search text of the results page's address, cut to {@link MAX_SEARCH_LENGTH} characters (a pasted paragraph
 * or an address made by hand is searched by its start rather than refused by the API), without NUL characters (an
 * address with `%00` would otherwise be refused by the API with a message about its query parameters) or
 * invisible direction marks.
 *
 * @example searchText('  damp proofing  ') // 'damp proofing'
 */
export function searchText(query: string | null): string {
  const text = Array.from((query ?? '').replace(UNSEARCHABLE, '').replace(BREAKS, ' ').trim())
    .slice(0, MAX_SEARCH_LENGTH)
    .join('')
    .trim();
  // Nothing a reader could see (a zero-width space alone): no search, as for an empty box.
  return isBlank(text) ? '' : text;
}
