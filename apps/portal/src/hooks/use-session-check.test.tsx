import { renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import useSWR, { SWRConfig } from 'swr';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { jsonResponse, makeClient } from '@/testing/fixtures';
import type { Client } from '@/types/api';
import { mockFetch } from '@/testing/mock-fetch';

import { checkSession, useSessionCheck } from './use-session-check';

const fetchMock = mockFetch();

/** Answers GET /api/demo with `client` once asked, when `release` is called. */
function heldAnswer(client: Client) {
  let release: () => void = () => {};
  fetchMock.mockImplementation(
    () => new Promise<Response>((resolve) => (release = () => resolve(jsonResponse(client)))),
  );
  return () => release();
}

/** The session check beside the hub's client data (its SWR key), in a fresh SWR cache. */
function renderChecks(prefix: string | undefined, error: unknown) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>{children}</SWRConfig>
  );
  return renderHook(
    (props: { error: unknown }) => ({
      first: useSessionCheck(prefix, props.error),
      second: useSessionCheck(prefix, props.error),
      cached: useSWR<Client>('/api/demo', null).data,
    }),
    { wrapper, initialProps: { error } },
  );
}

const refused = new ApiError(401, 'You are not logged in. Please log in again.');

describe('useSessionCheck', () => {
  it('checks nothing without a client', () => {
    const { result } = renderChecks(undefined, refused);
    expect(result.current.first).toBeUndefined();
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('is undefined while checking, then shares one check between callers and caches the client', async () => {
    const release = heldAnswer(makeClient());
    const { result } = renderChecks('demo', refused);
    expect(result.current.first).toBeUndefined();
    await waitFor(() => expect(fetchMock).toHaveBeenCalled());
    release();
    await waitFor(() => expect(result.current.first).toBe(true));
    expect(result.current.second).toBe(true);
    expect(fetchMock).toHaveBeenCalledOnce();
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/demo');
    expect(result.current.cached).toMatchObject({ logged_in: true, email: 'ada@example.com' });
  });

  it('says the session has ended when the client says logged out, and caches that answer', async () => {
    fetchMock.mockResolvedValue(jsonResponse(makeClient({ logged_in: false, email: '' })));
    const { result } = renderChecks('demo', refused);
    await waitFor(() => expect(result.current.first).toBe(false));
    expect(result.current.cached).toMatchObject({ logged_in: false });
  });

  it('lets the refusal stand when the check itself fails', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const { result } = renderChecks('demo', refused);
    await waitFor(() => expect(result.current.first).toBe(false));
    expect(result.current.cached).toBeUndefined();
  });

  it('checks again for a new refusal, undefined meanwhile', async () => {
    fetchMock.mockResolvedValue(jsonResponse(makeClient()));
    const { result, rerender } = renderChecks('demo', refused);
    await waitFor(() => expect(result.current.first).toBe(true));

    const release = heldAnswer(makeClient({ logged_in: false, email: '' }));
    rerender({ error: new ApiError(401, 'You are not logged in. Please log in again.') });
    expect(result.current.first).toBeUndefined();
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    release();
    await waitFor(() => expect(result.current.first).toBe(false));
  });
});

describe('checkSession', () => {
  it('shares a check while it is out, and asks anew once it is done', async () => {
    const release = heldAnswer(makeClient());
    const cache = vi.fn();
    const one = checkSession('demo', cache);
    const two = checkSession('demo', cache);
    expect(two).toBe(one);
    release();
    await expect(one).resolves.toBe(true);
    expect(cache).toHaveBeenCalledOnce();
    await waitFor(() => expect(checkSession('demo', cache)).not.toBe(one));
  });
});
