import { CONTROL_CHARACTER, FORMAT_CONTROL, isBlank } from '@/lib/text';

/** The longest search the API takes (GET /api/{client}/content: `search` of at most 200 characters). */
export const MAX_SEARCH_LENGTH = 200;

/**
 * Characters that only say where a word may break or not (a soft hyphen, a zero-width space, a word joiner, a
 * zero-width no-break space): text copied from a web page or a PDF carries them inside its words, unseen. Found by
 * the twenty-eighth session's portal probe: "warranty" pasted with a zero-width space in it showed as "warranty" and
 * found nothing, where the word typed found eight results. (Joiners, U+200C and U+200D, are kept: they are part of
 * emoji and of Persian or Indic words.)
 */
const INVISIBLE_BREAKS = '\\u00AD\\u200B\\u2060\\uFEFF';

/**
 * What a search drops: control characters (NUL, ESC…), the invisible text-direction marks and format controls
 * (U+200F, U+202E and the like) and the invisible word breaks above, which show nothing, match no word, and would
 * have the search find nothing for the text it shows (and the activity record refuse it).
 */
const UNSEARCHABLE = new RegExp(`[${CONTROL_CHARACTER}${FORMAT_CONTROL}${INVISIBLE_BREAKS}]`, 'g');

/** Tabs and line breaks (a pasted paragraph): a search is one line, so each is a space. */
const BREAKS = /[\t\n\v\f\r\u0085\u2028\u2029]/g;

/**
 * The search text of the results page's address, cut to {@link MAX_SEARCH_LENGTH} characters (a pasted paragraph
 * or an address made by hand is searched by its start rather than refused by the API), without NUL characters (an
 * address with `%00` would otherwise be refused by the API with a message about its query parameters),
 * invisible direction marks or invisible word breaks.
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
