import { afterEach, describe, expect, it, vi } from 'vitest';

import { recordViewWhenIdle } from './activity';

const sent = () =>
  vi.mocked(fetch).mock.calls.map(([url, init]) => [String(url), String(init?.body)]);

describe('recordViewWhenIdle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('should record the view only once the browser is idle', () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))),
    );
    const idle: IdleRequestCallback[] = [];
    vi.stubGlobal(
      'requestIdleCallback',
      vi.fn((callback: IdleRequestCallback, options?: IdleRequestOptions) => {
        expect(options).toEqual({ timeout: 2000 });
        idle.push(callback);
        return idle.length;
      }),
    );
    recordViewWhenIdle('demo', 'dashboard');
    expect(fetch).not.toHaveBeenCalled();
    idle[0]?.({ didTimeout: false, timeRemaining: () => 10 });
    expect(sent()).toEqual([
      ['/api/demo/activity', JSON.stringify({ action: 'view', item: 'dashboard' })],
    ]);
  });

  it('should fall back to a timer where the browser has no idle callbacks', () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.resolve(new Response(null, { status: 204 }))),
    );
    vi.stubGlobal('requestIdleCallback', undefined);
    recordViewWhenIdle('demo', 'info');
    expect(fetch).not.toHaveBeenCalled();
    vi.runAllTimers();
    expect(sent()).toEqual([
      ['/api/demo/activity', JSON.stringify({ action: 'view', item: 'info' })],
    ]);
  });
});
