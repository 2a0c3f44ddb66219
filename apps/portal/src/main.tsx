import { bootModules } from '@/lib/boot-data';

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
 * app's code is asked for. Then it asks for the app (src/start.tsx, which draws the first page) and, in the next
 * task (each is a few milliseconds of work on a slow phone; together they would be one long task), the page's own
 * chunks, so that the app and the page's chunks travel together rather than one after the other.
 */
function start(): void {
  void import('./start');
  setTimeout(preloadPageModules, 0);
}

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
