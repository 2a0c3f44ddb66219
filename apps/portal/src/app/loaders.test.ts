import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { rememberReturnPath, RETURN_PATH_KEY } from '@/lib/return-path';
import { jsonResponse, makeClient } from '@/testing/fixtures';

import { protectedLoader } from './loaders';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async () => jsonResponse(makeClient({ logged_in: true })));
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
  sessionStorage.clear();
});

/** Runs the hub's loader for `path`, and returns where it redirects to (or `null`). */
async function redirectOf(path: string): Promise<string | null> {
  try {
    const url = new URL(path, window.location.origin);
    await protectedLoader({
      params: { client: 'demo' },
      request: new Request(url),
      url,
      pattern: '/:client/*',
      context: undefined,
    } as unknown as Parameters<typeof protectedLoader>[0]);
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('location');
    throw thrown;
  }
}

describe('protectedLoader', () => {
  // Found by the sixteenth session's portal probe: a magic-link client's "Log in again" kept the page, but the
  // login link lands on the dashboard and nothing took the user back (only the open login did).
  it('should take a user landing on the dashboard back to the page their session ended on', async () => {
    rememberReturnPath('demo', 'ada@example.com', '/demo/calculator/building-warranty');
    expect(await redirectOf('/demo/dashboard')).toBe('/demo/calculator/building-warranty');
    // Once only.
    expect(sessionStorage.getItem(RETURN_PATH_KEY)).toBeNull();
    expect(await redirectOf('/demo/dashboard')).toBeNull();
  });

  it('should not take anyone else there, nor act on other pages', async () => {
    rememberReturnPath('demo', 'grace@example.com', '/demo/search-results?search=private');
    expect(await redirectOf('/demo/dashboard')).toBeNull();

    rememberReturnPath('demo', 'ada@example.com', '/demo/info');
    expect(await redirectOf('/demo/calculator/building-warranty')).toBeNull();
    expect(sessionStorage.getItem(RETURN_PATH_KEY)).not.toBeNull();
  });

  it('should send a visitor without a session to the login page, keeping the page for later', async () => {
    fetchMock.mockImplementation(async () => jsonResponse(makeClient({ logged_in: false })));
    rememberReturnPath('demo', 'ada@example.com', '/demo/info');
    expect(await redirectOf('/demo/dashboard')).toBe('/demo/login');
    expect(sessionStorage.getItem(RETURN_PATH_KEY)).not.toBeNull();
  });
});
