import { afterEach, beforeEach, vi } from 'vitest';

/**
 * A test file's fetch: a mock stubbed in before each test, reset and taken out after each. Call once at the top
 * of the file; answers are set per test (`mockResolvedValue`, `mockImplementation`…).
 */
export function mockFetch() {
  const fetchMock = vi.fn<typeof fetch>();
  beforeEach(() => {
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => {
    fetchMock.mockReset();
    vi.unstubAllGlobals();
  });
  return fetchMock;
}
