import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { renderWithClient } from '@/testing/test-utils';

import { SearchBox } from './search-box';

function renderSearchBox(path: string) {
  const box = <SearchBox prefix="demo" />;
  return renderWithClient(box, {
    path,
    pattern: '*',
  });
}

describe('SearchBox', () => {
  describe('given the dashboard', () => {
    it('should start empty', async () => {
      renderSearchBox('/demo/dashboard');
      expect(await screen.findByRole('searchbox', { name: 'Search the hub' })).toHaveValue('');
    });

    describe('when text is typed and Enter pressed', () => {
      it('should go to the search results for that text', async () => {
        const user = userEvent.setup();
        const { router } = renderSearchBox('/demo/dashboard');
        await user.type(await screen.findByRole('searchbox'), 'structural warranty{Enter}');

        expect(router.state.location.pathname).toBe('/demo/search-results');
        expect(new URLSearchParams(router.state.location.search).get('search')).toBe(
          'structural warranty',
        );
      });
    });

    describe('when Enter is pressed in an empty or blank box', () => {
      it('should stay where it is', async () => {
        const user = userEvent.setup();
        const { router } = renderSearchBox('/demo/dashboard');
        const box = await screen.findByRole('searchbox');
        await user.type(box, '{Enter}');
        await user.type(box, '   {Enter}');
        // Only characters that show nothing: a zero-width space, a control character.
        await user.clear(box);
        await user.type(box, '\u200B\u0001{Enter}');

        expect(router.state.location.pathname).toBe('/demo/dashboard');
      });
    });
  });

  describe('when more is typed or pasted than the API searches (200 characters)', () => {
    it('should keep the first 200 and search for them', async () => {
      const user = userEvent.setup();
      const { router } = renderSearchBox('/demo/dashboard');
      const box = await screen.findByRole('searchbox');
      await user.click(box);
      await user.paste('a'.repeat(250));
      await user.keyboard('{Enter}');

      expect(box).toHaveValue('a'.repeat(200));
      expect(new URLSearchParams(router.state.location.search).get('search')).toBe('a'.repeat(200));
    });
  });

  describe('given the search results page', () => {
    it('should show the query', async () => {
      renderSearchBox('/demo/search-results?search=terrorism');
      expect(await screen.findByRole('searchbox')).toHaveValue('terrorism');
    });

    it('should show a longer query from the address cut to the 200 characters searched, without direction marks', async () => {
      renderSearchBox(`/demo/search-results?search=%E2%80%8F${'a'.repeat(5000)}`);
      expect(await screen.findByRole('searchbox')).toHaveValue('a'.repeat(200));
    });

    describe('when a new search is made', () => {
      it('should show the new query and keep focus in the box', async () => {
        const user = userEvent.setup();
        const { router } = renderSearchBox('/demo/search-results?search=terrorism');
        const box = await screen.findByRole('searchbox');
        await user.clear(box);
        await user.type(box, 'bonds{Enter}');

        expect(router.state.location.search).toBe('?search=bonds');
        expect(box).toHaveValue('bonds');
        expect(box).toHaveFocus();
      });
    });

    describe('when the user leaves it', () => {
      it('should clear the box', async () => {
        const { router } = renderSearchBox('/demo/search-results?search=terrorism');
        const box = await screen.findByRole('searchbox');
        await router.navigate('/demo/info');

        // The router renders the new location as a transition: wait for it rather than for the navigation.
        await waitFor(() => expect(screen.getByRole('searchbox')).toHaveValue(''));
        expect(box).toHaveValue('');
      });
    });
  });
});
