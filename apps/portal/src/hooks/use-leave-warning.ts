import { useEffect } from 'react';
import { useBlocker } from 'react-router-dom';

/**
 * Asks before the page is left while `isBusy()` says something would be lost: the browser's own question for a
 * reload, a closed tab or another address (`beforeunload`), and `message` for the portal's own links and Back
 * and Forward (the router's blocker). `isBusy` is read at the moment of leaving, so a page may leave by itself
 * once the work is done (set what it reads before it navigates).
 *
 * Found by the nineteenth session's portal probe: Back pressed while a due-diligence request was uploading
 * cancelled it without a word and showed the thank-you page of an earlier request, and closing the tab lost
 * the draft with the upload.
 */
export function useLeaveWarning(isBusy: () => boolean, message: string): void {
  useEffect(() => {
    const warn = (event: BeforeUnloadEvent) => {
      if (!isBusy()) return;
      event.preventDefault();
      // Older browsers ask only when a value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [isBusy]);

  const blocker = useBlocker(() => isBusy());
  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    if (window.confirm(message)) blocker.proceed();
    else blocker.reset();
  }, [blocker, message]);
}
