import { useState, type ReactNode } from 'react';
import styled from 'styled-components';

interface LateAnswerPlaceProps {
  /** What the place is for (a search's text, an article): another one starts afresh, with no place held. */
  answerKey: string;
  /** Whether the page is drawn without its answer, waiting for it (its spinner showing). */
  waiting: boolean;
  children: ReactNode;
}

/**
 * The place of a page's content when its answer comes later than the page (after its loader's wait, `PAGE_ANSWERS_WAIT_MS`):
 * from the moment the page draws without it, the place is at least a window high, so the footer is out of view
 * and the content, whatever its height, arrives without moving anything in view. An answer that came in time
 * holds no place: the page draws whole, as before.
 *
 * Found by the twenty-seventh session's probe: search results coming after the loader's 4 s wait arrived under
 * "Searching…" and pushed the footer's 243 px banner down (a layout shift of 0.40 on a phone, 0.07-0.13 at
 * 1280 px, on a results page opened directly too); the information hub's topics and an article did the same (0.38
 * and 0.40 on a phone). The place stays for that answer (an empty one, "No results found", leaves space under it),
 * so the footer never comes back up into view as it arrives.
 */
export function LateAnswerPlace({ answerKey, waiting, children }: LateAnswerPlaceProps) {
  const [lateFor, setLateFor] = useState<string | null>(null);
  if (waiting && lateFor !== answerKey) setLateFor(answerKey);
  const held = lateFor === answerKey || waiting;
  return <Place data-held={held ? '' : undefined}>{children}</Place>;
}

const Place = styled.div`
  &[data-held] {
    min-height: 100vh;
  }
`;
