/** The most characters of someone's text quoted back in a message. */
export const MAX_SHOWN = 40;

/**
 * What a quote leaves out: control characters (C0, DEL, and C1, whose CSI drives some terminals where the
 * staff tool and the logs are read), line and paragraph separators, and the bidi and other invisible format
 * controls, which would reverse the rest of the message around the quote ("Trojan Source").
 */
const UNSHOWN = new RegExp(
  String.raw`[\0-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u206f\ufff9-\ufffb]`,
  'u',
);

/**
 * Text a sender chose (a field name, a client prefix), as quoted in a message: without control characters, and
 * cut to MAX_SHOWN characters (code points) with an ellipsis.
 */
export function shownText(text: string): string {
  const chars = [...text].filter((c) => !UNSHOWN.test(c));
  return chars.length > MAX_SHOWN ? `${chars.slice(0, MAX_SHOWN).join('')}…` : chars.join('');
}
