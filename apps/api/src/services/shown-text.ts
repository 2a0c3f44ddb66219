/** The most characters of someone's text quoted back in a message. */
export const MAX_SHOWN = 40;

/**
 * Text a sender chose (a field name, a client prefix), as quoted in a message: without control characters, and
 * cut to MAX_SHOWN characters (code points) with an ellipsis.
 */
export function shownText(text: string): string {
  const chars = [...text].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f);
  return chars.length > MAX_SHOWN ? `${chars.slice(0, MAX_SHOWN).join('')}…` : chars.join('');
}
