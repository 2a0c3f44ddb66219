import { NOT_SHOWN_IN_A_LINE } from '../text-controls.js';

/** The most characters of someone's text quoted back in a message. */
export const MAX_SHOWN = 40;

/**
 * Text a sender chose (a field name, a client prefix), as quoted in a message: without control characters, and
 * cut to `max` characters (code points; MAX_SHOWN unless said) with an ellipsis.
 */
export function shownText(text: string, max = MAX_SHOWN): string {
  // Left out: control characters (C1's CSI drives some terminals where the staff tool and the logs are read),
  // line and paragraph separators, and the bidi and format controls, which would reverse the message around it.
  const chars = [...text].filter((c) => !NOT_SHOWN_IN_A_LINE.test(c));
  return chars.length > max ? `${chars.slice(0, max).join('')}…` : chars.join('');
}
