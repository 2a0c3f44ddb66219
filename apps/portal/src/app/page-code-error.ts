/**
 * A page's code could not be fetched (see `lazyPage` in app/router.tsx): reloading the page fetches it again. A
 * module of its own, so that the router (loaded by every page) takes it without the error pages themselves.
 */
export class PageCodeError extends Error {
  constructor(cause: unknown) {
    super('This page could not be loaded.', { cause });
    this.name = 'PageCodeError';
  }
}
