/** The longest search the API takes (GET /api/{client}/content: `search` of at most 200 characters). */
export const MAX_SEARCH_LENGTH = 200;

/**
 * The search text of the results page's address, cut to {@link MAX_SEARCH_LENGTH} characters (a pasted paragraph
 * or an address made by hand is searched by its start rather than refused by the API), without NUL characters (an
 * address with `%00` would otherwise be refused by the API with a message about its query parameters).
 *
 * @example searchText('  damp proofing  ') // 'damp proofing'
 */
export function searchText(query: string | null): string {
  return Array.from((query ?? '').replaceAll('\u0000', '').trim())
    .slice(0, MAX_SEARCH_LENGTH)
    .join('')
    .trim();
}
