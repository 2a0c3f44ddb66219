import { FORMAT_CONTROL } from '@/lib/text';

/** The longest search the API takes (GET /api/{client}/content: `search` of at most 200 characters). */
export const MAX_SEARCH_LENGTH = 200;

/**
 * What a search drops: NUL characters, and the invisible text-direction marks and format controls (U+200F, U+202E
 * and the like), which show nothing, match no word, and would have the search find nothing for the text it shows.
 */
const UNSEARCHABLE = new RegExp(`[\\u0000${FORMAT_CONTROL}]`, 'g');

/**
 * The search text of the results page's address, cut to {@link MAX_SEARCH_LENGTH} characters (a pasted paragraph
 * or an address made by hand is searched by its start rather than refused by the API), without NUL characters (an
 * address with `%00` would otherwise be refused by the API with a message about its query parameters) or
 * invisible direction marks.
 *
 * @example searchText('  damp proofing  ') // 'damp proofing'
 */
export function searchText(query: string | null): string {
  return Array.from((query ?? '').replace(UNSEARCHABLE, '').trim())
    .slice(0, MAX_SEARCH_LENGTH)
    .join('')
    .trim();
}
