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
  it('give the remembered page back once', () => {
    rememberReturnPath('demo', '/demo/due-diligence');
    expect(takeReturnPath('demo')).toBe('/demo/due-diligence');
    expect(takeReturnPath('demo')).toBeNull();
  });

  it('never give back what something else planted in the tab', () => {
    sessionStorage.setItem(RETURN_PATH_KEY, '//evil.example/demo/dashboard');
    expect(takeReturnPath('demo')).toBeNull();
    expect(sessionStorage.getItem(RETURN_PATH_KEY)).toBeNull();
  });

  it("do not carry one client's page to another client's login", () => {
    rememberReturnPath('demo', '/demo/info');
    expect(takeReturnPath('northbank')).toBeNull();
  });
});
