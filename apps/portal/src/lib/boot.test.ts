import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { apiFetch } from './api-client';
import { bootAnswer, bootModules, endBoot, resetBootForTests, useBootFallback } from './boot';

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
