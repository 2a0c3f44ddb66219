import { bootModules } from '@/lib/boot-data';
import { showStartFailure } from '@/lib/start-failure';

/** A `<link rel="modulepreload">` for each of the page's own chunks named in the page's data. */
function preloadPageModules(): void {
  for (const href of bootModules()) {
    const link = document.createElement('link');
    link.rel = 'modulepreload';
    link.crossOrigin = '';
    link.href = href;
    document.head.append(link);
  }
}

/**
 * The entry: as small as it can be, so that the page's HTML (with its loading note) is painted before any of the
 * app's code is asked for. Then it asks for React and, in the next task, for the app's and the page's chunks (named
 * in the page's data), so that they all travel together. React is run in a task of its own, and the app (src/
 * start.tsx, which draws the first page) only in a later one: run together they were one task of about 60 ms on
 * this machine, over 250 ms on the slow phone Lighthouse plays, and most of the page's blocking time.
 */
function start(): void {
  import('react-dom/client')
    .then(() => new Promise((resolve) => setTimeout(resolve, 0)))
    .then(() => import('./start'))
    .catch(showAppFailure);
  setTimeout(preloadPageModules, 0);
}

/** The app's code could not be fetched: the page says so and offers a reload (`lib/start-failure.ts`). */
function showAppFailure(): void {
  const root = document.getElementById('root');
  if (root !== null) showStartFailure(root);
}

/**
 * Every page of the portal is served `Cache-Control: no-store`: it holds who is logged in and their work, and must
 * be asked for again, never kept. A browser that still keeps such a page in its back/forward cache (and hides it
 * from the tab's other pages, so that it hears of no logout) would show the hub after Log out to whoever pressed
 * Back on a shared computer: a page restored so is loaded again, through the session check, at once. Found by the
 * thirtieth session's portal probe (Chromium keeps no such page now; the page did nothing if one did).
 */
window.addEventListener('pageshow', (event) => {
  if (event.persisted) window.location.reload();
});

let started = false;
function startOnce(): void {
  if (started) return;
  started = true;
  start();
}

// Once the browser reports the page's first contentful paint (the loading note); where paint timing is not
// reported, after the next frame. A hidden tab paints nothing, so it starts anyway a second on.
if (
  typeof PerformanceObserver !== 'undefined' &&
  PerformanceObserver.supportedEntryTypes.includes('paint')
) {
  new PerformanceObserver((list, observer) => {
    if (list.getEntriesByName('first-contentful-paint').length > 0) {
      observer.disconnect();
      startOnce();
    }
  }).observe({ type: 'paint', buffered: true });
} else {
  requestAnimationFrame(() => setTimeout(startOnce, 0));
}
setTimeout(startOnce, 1000);
