import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { noteInAppNavigation, resetInAppNavigationForTests } from '@/lib/app-navigation';

import { pageKey, useScrollToTopOnPathChange } from './use-scroll-to-top';

describe('pageKey', () => {
  it('should tell articles apart by their query, and no other page', () => {
    expect(pageKey('/demo/article', '?id=a&type=insight', 'article')).toBe(
      '/demo/article?id=a&type=insight',
    );
    expect(pageKey('/demo/Article/', '?id=b&type=insight', 'article')).toBe(
      '/demo/Article/?id=b&type=insight',
    );
    expect(pageKey('/demo/search-results', '?search=x', 'article')).toBe('/demo/search-results');
    expect(pageKey('/demo/due-diligence', '?success=1', 'article')).toBe('/demo/due-diligence');
  });
});

describe('useScrollToTopOnPathChange', () => {
  it('should scroll to the top and focus the main area on a new page, not on the first render', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const main = document.createElement('main');
    main.tabIndex = -1;
    document.body.append(main);
    try {
      const { rerender } = renderHook(
        ({ page }) => useScrollToTopOnPathChange(page, { current: main }),
        {
          initialProps: { page: pageKey('/demo/article', '?id=a&type=insight', 'article') },
        },
      );
      expect(scrollTo).not.toHaveBeenCalled();
      rerender({ page: pageKey('/demo/article', '?id=b&type=insight', 'article') });
      expect(scrollTo).toHaveBeenCalledTimes(1);
      expect(document.activeElement).toBe(main);
      // The same page again (a re-render) does nothing more.
      rerender({ page: pageKey('/demo/article', '?id=b&type=insight', 'article') });
      expect(scrollTo).toHaveBeenCalledTimes(1);
    } finally {
      main.remove();
      scrollTo.mockRestore();
    }
  });

  afterEach(() => resetInAppNavigationForTests());

  it('should focus the main area on its first render when the app navigated to it, not after a page load', () => {
    const scrollTo = vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    const main = document.createElement('main');
    main.tabIndex = -1;
    document.body.append(main);
    try {
      // A page load: focus stays with the browser.
      const loaded = renderHook(() =>
        useScrollToTopOnPathChange('/demo/dashboard', { current: main }),
      );
      expect(document.activeElement).toBe(document.body);
      expect(scrollTo).not.toHaveBeenCalled();
      loaded.unmount();

      // From the 404 page by its link (the hub draws for the first time): a new page.
      noteInAppNavigation();
      const { rerender } = renderHook(() =>
        useScrollToTopOnPathChange('/demo/dashboard', { current: main }),
      );
      expect(document.activeElement).toBe(main);
      expect(scrollTo).toHaveBeenCalledTimes(1);
      rerender();
      expect(scrollTo).toHaveBeenCalledTimes(1);
    } finally {
      main.remove();
      scrollTo.mockRestore();
    }
  });
});
