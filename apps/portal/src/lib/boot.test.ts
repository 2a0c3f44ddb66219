import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { apiFetch } from './api-client';
import { bootAnswer, bootModules, endBoot, resetBootForTests, useBootFallback } from './boot';
import { fetchPageAnswers } from './page-answers';
import type { PageCall } from './page-answers';

function serve(answers: Record<string, unknown> | string) {
  document.getElementById('portal-boot')?.remove();
  const element = document.createElement('script');
  element.type = 'application/json';
  element.id = 'portal-boot';
  element.textContent = typeof answers === 'string' ? answers : JSON.stringify({ answers });
  document.body.append(element);
}

describe('the first page’s answers', () => {
  beforeEach(() => resetBootForTests());
  afterEach(() => {
    document.getElementById('portal-boot')?.remove();
    vi.unstubAllGlobals();
  });

  it('should give the answer the page was served with, by API path', () => {
    serve({ '/api/demo': { prefix: 'demo', logged_in: true } });
    expect(bootAnswer('/api/demo')).toEqual({ prefix: 'demo', logged_in: true });
    expect(bootAnswer('/api/demo/content')).toBeUndefined();
    expect(bootAnswer('/api/other')).toBeUndefined();
  });

  it('should give nothing without the element or with a broken one', () => {
    expect(bootAnswer('/api/demo')).toBeUndefined();
    resetBootForTests();
    serve('{not json');
    expect(bootAnswer('/api/demo')).toBeUndefined();
    resetBootForTests();
    serve('{"answers": null}');
    expect(bootAnswer('/api/demo')).toBeUndefined();
  });

  it('should end on request, and on the first call that changes state', async () => {
    serve({ '/api/demo': { logged_in: false } });
    endBoot();
    expect(bootAnswer('/api/demo')).toBeUndefined();

    resetBootForTests();
    const fetchMock = vi.fn(() =>
      Promise.resolve(new Response(JSON.stringify({ ok: true }), { status: 200 })),
    );
    vi.stubGlobal('fetch', fetchMock);
    expect(bootAnswer('/api/demo')).toEqual({ logged_in: false });
    // A GET leaves the answers alone…
    await apiFetch('/api/demo/content');
    expect(bootAnswer('/api/demo')).toEqual({ logged_in: false });
    // …logging in makes them out of date.
    await apiFetch('/api/demo/login', { method: 'POST', json: {} });
    expect(bootAnswer('/api/demo')).toBeUndefined();
  });

  it('should give SWR the served answer without a request on mount, and keep it after the first page ends', () => {
    serve({ '/api/demo/content': { insights: [] } });
    const { result, rerender } = renderHook(({ key }) => useBootFallback(key), {
      initialProps: { key: '/api/demo/content' as string | null },
    });
    expect(result.current).toEqual({ fallbackData: { insights: [] }, revalidateOnMount: false });
    act(() => endBoot());
    rerender({ key: '/api/demo/content' });
    expect(result.current).toEqual({ fallbackData: { insights: [] }, revalidateOnMount: false });
    // Another key (another article) is asked for as usual.
    rerender({ key: '/api/demo/article?id=x&type=insight' });
    expect(result.current).toEqual({});
  });

  it('should leave SWR alone for a key the page was not served with', () => {
    serve({ '/api/demo': {} });
    const { result } = renderHook(() => useBootFallback('/api/demo/video'));
    expect(result.current).toEqual({});
    const none = renderHook(() => useBootFallback(null));
    expect(none.result.current).toEqual({});
  });

  it('should name the page’s own chunks, keeping only the build’s script paths, after the answers have ended', () => {
    document.getElementById('portal-boot')?.remove();
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = 'portal-boot';
    element.textContent = JSON.stringify({
      answers: { '/api/demo': { prefix: 'demo' } },
      modules: [
        '/assets/app-root-AbC_12.js',
        '/assets/building-warranty-x-y.js',
        'https://evil.example/assets/a.js',
        '//evil.example/a.js',
        '/assets/../admin.js',
        'javascript:alert(1)',
        '/assets/style.css',
        42,
      ],
    });
    document.body.append(element);
    endBoot();
    expect(bootAnswer('/api/demo')).toBeUndefined();
    expect(bootModules()).toEqual([
      '/assets/app-root-AbC_12.js',
      '/assets/building-warranty-x-y.js',
    ]);
  });
});

describe('the answers a page’s loader fetches before it is shown', () => {
  beforeEach(() => resetBootForTests());
  afterEach(() => {
    document.getElementById('portal-boot')?.remove();
    vi.useRealTimers();
  });

  const answer = (value: unknown) => () => Promise.resolve(value);

  it('should hand over each answer that came, for the page until the next navigation', async () => {
    const served = await fetchPageAnswers(
      [
        ['/api/demo/video', answer(null)],
        ['/api/demo/content', answer({ insights: [] })],
        ['/api/demo/other', () => Promise.reject(new Error('offline'))],
      ],
      new AbortController().signal,
    );
    expect([...served]).toEqual([
      ['/api/demo/video', null],
      ['/api/demo/content', { insights: [] }],
    ]);
    // The page draws from them with no request on mount; the failed one it asks for itself.
    expect(renderHook(() => useBootFallback('/api/demo/video')).result.current).toEqual({
      fallbackData: null,
      revalidateOnMount: false,
    });
    expect(bootAnswer('/api/demo/other')).toBeUndefined();
    endBoot();
    expect(bootAnswer('/api/demo/content')).toBeUndefined();
  });

  it('should not ask again for what the page was served with', async () => {
    document.getElementById('portal-boot')?.remove();
    const element = document.createElement('script');
    element.type = 'application/json';
    element.id = 'portal-boot';
    element.textContent = JSON.stringify({ answers: { '/api/demo/video': { title: 'Served' } } });
    document.body.append(element);
    const video = vi.fn(answer({ title: 'Fetched' }));
    const content = vi.fn(answer({ insights: [] }));
    const served = await fetchPageAnswers(
      [
        ['/api/demo/video', video],
        ['/api/demo/content', content],
      ],
      new AbortController().signal,
    );
    expect(video).not.toHaveBeenCalled();
    expect(content).toHaveBeenCalledTimes(1);
    expect([...served.keys()]).toEqual(['/api/demo/content']);
    expect(bootAnswer('/api/demo/video')).toEqual({ title: 'Served' });
    expect(bootAnswer('/api/demo/content')).toEqual({ insights: [] });
  });

  it('should give up an answer that is late, leaving it to the page', async () => {
    vi.useFakeTimers();
    let given: AbortSignal | undefined;
    const late: PageCall = [
      '/api/demo/video',
      (signal) =>
        new Promise((_, reject) => {
          given = signal;
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        }),
    ];
    const pending = fetchPageAnswers(
      [late, ['/api/demo/content', answer({ insights: [] })]],
      new AbortController().signal,
      4_000,
    );
    await vi.advanceTimersByTimeAsync(3_999);
    expect(given?.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    const served = await pending;
    expect(given?.aborted).toBe(true);
    expect((given?.reason as DOMException).name).toBe('TimeoutError');
    expect([...served.keys()]).toEqual(['/api/demo/content']);
    expect(bootAnswer('/api/demo/video')).toBeUndefined();
  });

  it('should hand over nothing for a navigation given up', async () => {
    const navigation = new AbortController();
    let given: AbortSignal | undefined;
    const pending = fetchPageAnswers(
      [
        [
          '/api/demo/content',
          (signal) => {
            given = signal;
            return new Promise((resolve) => setTimeout(() => resolve({ insights: [] }), 10));
          },
        ],
      ],
      navigation.signal,
    );
    navigation.abort();
    expect(given?.aborted).toBe(true);
    expect((await pending).size).toBe(0);
    expect(bootAnswer('/api/demo/content')).toBeUndefined();
  });
});
