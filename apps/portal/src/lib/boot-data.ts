/**
 * The first page's data, written into index.html by the API (apps/api/src/services/portal-page.ts), read without
 * React so that the entry module (src/main.tsx) can use it before the app's code is loaded:
 *
 * - `answers`: the answers of the GET calls the page opens with (GET /api/{client} always; the dashboard's video
 *   and content, …), keyed by their API path, which is also their SWR key. With them the page draws at once,
 *   without a spinner or a layout shift while it waits. They describe the moment the page was served, so they
 *   hold only for that first page: the first navigation or the first call that changes something (logging in
 *   or out) ends them, and from then on everything is asked for.
 *   An in-app navigation to a page whose loader fetches its answers before the page is shown (the dashboard's:
 *   `fetchPageAnswers` in `boot.ts`) hands them over the same way, for that page until the next navigation.
 * - `modules`: the page's own code chunks (beyond the app's), which the entry asks for beside the app's code
 *   rather than after the router has found the page.
 */

const ELEMENT_ID = 'portal-boot';
/** A chunk of the portal's build: only these are ever preloaded from the page's data. */
const MODULE = /^\/assets\/[\w.-]+\.js$/;

let answers: Map<string, unknown> | null = null;
let modules: string[] = [];
let read = false;

function load(): void {
  if (read) return;
  read = true;
  const element = typeof document === 'undefined' ? null : document.getElementById(ELEMENT_ID);
  if (!element?.textContent) return;
  try {
    const parsed = JSON.parse(element.textContent) as { answers?: unknown; modules?: unknown };
    if (typeof parsed.answers === 'object' && parsed.answers !== null) {
      answers = new Map(Object.entries(parsed.answers));
    }
    if (Array.isArray(parsed.modules)) {
      modules = parsed.modules.filter(
        (file): file is string => typeof file === 'string' && MODULE.test(file),
      );
    }
  } catch {
    // A page without usable data asks for everything: slower, never wrong.
    answers = null;
    modules = [];
  }
}

/** The answer the page was served with for this API path (as built by `paths.api`), while the first page lasts. */
export function bootAnswer<T>(path: string): T | undefined {
  load();
  return answers?.get(path) as T | undefined;
}

/** The page's own chunks, as named by the server (only `/assets/….js` paths are kept). */
export function bootModules(): readonly string[] {
  load();
  return modules;
}

/**
 * The answers a page's loader fetched before the page is shown, held for that page as the first page's are (the
 * next navigation ends them), beside any the page was served with.
 */
export function servePageAnswers(served: ReadonlyMap<string, unknown>): void {
  load();
  answers = new Map([...(answers ?? []), ...served]);
}

/** Ends the page's answers: called as each navigation starts, and on the first call that changes state. */
export function endBoot(): void {
  load();
  answers = null;
}

/** For tests: forget what was read, so the next call reads the document again. */
export function resetBootForTests(): void {
  read = false;
  answers = null;
  modules = [];
}
