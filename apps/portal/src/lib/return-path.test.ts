import { afterEach, describe, expect, it } from 'vitest';

import { rememberReturnPath, RETURN_PATH_KEY, safeReturnPath, takeReturnPath } from './return-path';

afterEach(() => sessionStorage.clear());

describe('safeReturnPath', () => {
  it('keeps a page of the same client, with its query', () => {
    expect(safeReturnPath('demo', '/demo/calculator/btr-warranty')).toBe(
      '/demo/calculator/btr-warranty',
    );
    expect(safeReturnPath('demo', '/demo/article?id=a&type=insight')).toBe(
      '/demo/article?id=a&type=insight',
    );
  });

  it.each([
    'https://evil.example/demo/dashboard',
    '//evil.example/demo/dashboard',
    '/\\evil.example/demo/dashboard',
    '\\\\evil.example/demo/dashboard',
    'javascript:alert(1)',
    '/northbank/dashboard',
    '/demo',
    '/demo/login',
    '/demo-other/dashboard',
    '/demo/../northbank/dashboard',
    '',
  ])('refuses %j', (path) => {
    expect(safeReturnPath('demo', path)).toBeNull();
  });
});

describe('rememberReturnPath and takeReturnPath', () => {
  it('give the remembered page back once, to the user it was remembered for', () => {
    rememberReturnPath('demo', 'ada@example.com', '/demo/due-diligence');
    expect(takeReturnPath('demo', ' Ada@Example.com ')).toBe('/demo/due-diligence');
    expect(takeReturnPath('demo', 'ada@example.com')).toBeNull();
  });

  // Found by the fifteenth session's portal probe: Anna's session ended on a search page, she pressed Log in
  // again, and Bert, logging in on the tab, landed on her search (her query in the heading and his search box).
  it("do not take another user to the page someone else's session ended on, and forget it", () => {
    rememberReturnPath('demo', 'anna@example.com', '/demo/search-results?search=private');
    expect(takeReturnPath('demo', 'bert@example.com')).toBeNull();
    expect(sessionStorage.getItem(RETURN_PATH_KEY)).toBeNull();
    expect(takeReturnPath('demo', 'anna@example.com')).toBeNull();
  });

  it.each([
    '//evil.example/demo/dashboard',
    JSON.stringify({ path: '//evil.example/demo/dashboard', email: 'ada@example.com' }),
    JSON.stringify({ path: '/demo/info' }),
    '{',
    'null',
  ])('never give back what something else planted in the tab: %s', (planted) => {
    sessionStorage.setItem(RETURN_PATH_KEY, planted);
    expect(takeReturnPath('demo', 'ada@example.com')).toBeNull();
    expect(sessionStorage.getItem(RETURN_PATH_KEY)).toBeNull();
  });

  it("do not carry one client's page to another client's login", () => {
    rememberReturnPath('demo', 'ada@example.com', '/demo/info');
    expect(takeReturnPath('northbank', 'ada@example.com')).toBeNull();
  });
});
