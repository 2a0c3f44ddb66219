import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';

/** The questions of the pages shown now: each asked when its page is left while it says something would be lost. */
const questions = new Set<{ isBusy: () => boolean; message: string }>();

/** The user has just agreed to leave (`confirmLeavingPage`): the browser's own question is not asked as well. */
let agreed = false;

/**
 * Asks before the portal itself leaves the page for a page load (Log out), as Back or a link of the portal would
 * (`window.confirm` with the page's message), when the page says something would be lost; `true` to go on. Found by
 * the thirtieth session's portal probe: Log out pressed mid-upload forgot the tab's drafts (and told the other tabs
 * of a logout) before the browser asked whether to leave, so a user who chose to stay kept their session but lost
 * the draft at the next reload. Call it before forgetting anything.
 */
export function confirmLeavingPage(): boolean {
  for (const question of questions) {
    if (!question.isBusy()) continue;
    if (!window.confirm(question.message)) return false;
    agreed = true;
    return true;
  }
  return true;
}

/**
 * Asks before the page is left while `isBusy()` says something would be lost: the browser's own question for a
 * reload, a closed tab or another address (`beforeunload`), and `message` for the portal's own links and Back
 * and Forward (the router's blocker) and its Log out (`confirmLeavingPage`). `isBusy` is read at the moment of
 * leaving, so a page may leave by itself once the work is done (set what it reads before it navigates).
 *
 * Found by the nineteenth session's portal probe: Back pressed while a due-diligence request was uploading
 * cancelled it without a word and showed the thank-you page of an earlier request, and closing the tab lost
 * the draft with the upload.
 */
export function useLeaveWarning(isBusy: () => boolean, message: string): void {
  useEffect(() => {
    const question = { isBusy, message };
    questions.add(question);
    const warn = (event: BeforeUnloadEvent) => {
      // Asked already, by the portal, for this very leaving.
      if (agreed) {
        agreed = false;
        return;
      }
      if (!isBusy()) return;
      event.preventDefault();
      // Older browsers ask only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => {
      questions.delete(question);
      window.removeEventListener('beforeunload', warn);
    };
  }, [isBusy, message]);

  const blocker = useBlocker(() => isBusy());
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker, message]);
}
