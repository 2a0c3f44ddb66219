import type { ReactNode } from 'react';

/** Set on a page's late-answer place while it waits: the footer is left out meanwhile (`site-footer.tsx`). */
export const WAITING_FOR_ANSWER_ATTRIBUTE = 'data-waiting-for-answer';

interface LateAnswerPlaceProps {
  /** Whether the page is drawn without its answer, waiting for it (its spinner showing). */
  waiting: boolean;
  children: ReactNode;
}

/**
 * The place of a page's content when its answer comes later than the page (after its loader's wait,
 * `PAGE_ANSWERS_WAIT_MS`): while the page is drawn without it, the footer is left out of the page (`SiteFooter`
 * hides itself while a place waits), so the content, whatever its height, arrives with nothing under it to move,
 * and the footer is drawn anew under it in the same frame: an element drawn anew is not a layout shift, one moved
 * is. An answer that came in time never waits: the page draws whole, footer and all.
 *
 * Found by the twenty-seventh session's probe: search results coming after the loader's 4 s wait arrived under
 * "Searching…" and pushed the footer's 243 px banner down (a layout shift of 0.40 on a phone, 0.07-0.13 at
 * 1280 px, on a results page opened directly too); the information hub's topics and an article did the same (0.38
 * and 0.40 on a phone). The place was then held a window high for the answer, which left about a window of empty
 * space under a small answer ("No results found"), found by the twenty-eighth session: the footer now follows the
 * answer, whatever its size.
 */
export function LateAnswerPlace({ waiting, children }: LateAnswerPlaceProps) {
  return <div {...{ [WAITING_FOR_ANSWER_ATTRIBUTE]: waiting ? '' : undefined }}>{children}</div>;
}
