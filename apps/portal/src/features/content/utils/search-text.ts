/** The longest search the API takes (GET /api/{client}/content: `search` of at most 200 characters). */
export const MAX_SEARCH_LENGTH = 200;

/**
 * What a search drops: NUL characters, and the invisible text-direction marks and format controls (U+200F, U+202E
 * and the like), which show nothing, match no word, and would have the search find nothing for the text it shows.
 */
const UNSEARCHABLE =
  // eslint-disable-next-line no-control-regex -- the NUL is one of what it drops
  /[\u0000\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\u206A-\u206F\uFFF9-\uFFFB]/g;

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
