/**
 * Whether this document has gone from one location to another within the app (a link, Back or Forward, a redirect
 * after the first page) since its first page was drawn. Set by the router (`createAppRouter` in `app/router.tsx`);
 * a full page load (the app's first paint, a typed address, a reload) starts again from false.
 *
 * The hub reads it when it first draws: entered by an in-app navigation (from the 404 or the error page, which are
 * outside it), the link that had keyboard focus is gone and focus would fall to the document, so the hub moves it
 * to its main area as on any other new page; on a page load it leaves focus where the browser put it.
 */
let navigated = false;

/** Called by the router when its location changes after the first page. */
export function noteInAppNavigation(): void {
  navigated = true;
}

/** Whether the document has navigated within the app since it loaded. */
export function hasNavigatedInApp(): boolean {
  return navigated;
}

/** For tests: as after a page load. */
export function resetInAppNavigationForTests(): void {
  navigated = false;
}
