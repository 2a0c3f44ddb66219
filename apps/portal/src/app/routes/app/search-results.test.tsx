import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { jsonResponse } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';

import { Component as SearchResults } from './search-results';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  vi.stubGlobal('fetch', fetchMock);
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    if (!url.startsWith('/api/demo/content')) return new Response(null, { status: 204 });
    const topic = { id: 't1', title: 'Latent defects', description: '<p>Cover</p>', pro_tip: null };
    return jsonResponse({
      insurance: url.includes('liability') ? [topic, { ...topic, id: 't2' }] : [topic],
      case_studies: [],
      insights: [],
    });
  });
});

afterEach(() => {
  fetchMock.mockReset();
  vi.unstubAllGlobals();
});

/** The hidden status message of the page (not the loading note's). */
const news = () =>
  screen
    .getAllByRole('status')
    .map((status) => status.textContent ?? '')
    .filter((text) => text.includes('for “'));

describe('SearchResults', () => {
  // Found by the sixteenth session's portal probe: opened from a link (or reloaded), the page also told its
  // results in its status region, on top of its heading and results, as if the user had just searched.
  it('should be quiet when opened first, and tell a new search from the box', async () => {
    const { router } = renderWithClient(<SearchResults />, {
      path: '/demo/search-results?search=warranty',
      pattern: 'search-results',
    });
    expect(await screen.findByRole('heading', { name: 'Latent defects' })).toBeInTheDocument();
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(news()).toEqual([]);

    await act(() => router.navigate('/demo/search-results?search=liability'));
    await waitFor(() => expect(news()).toEqual(['2 results for “liability”']));
  });

  it('should tell what a search from the box on another page found', async () => {
    const { router } = renderWithClient(<SearchResults />, {
      path: '/demo/dashboard',
      pattern: 'search-results',
      routes: [{ path: 'dashboard', element: <p>Dashboard</p> }],
    });
    await screen.findByText('Dashboard');
    await act(() => router.navigate('/demo/search-results?search=warranty'));
    await waitFor(() => expect(news()).toEqual(['1 result for “warranty”']));
  });

  // Found by the nineteenth session's portal probe: a JSON answer of another shape crashed the page to "Oops!"
  // with the script's own error and no Retry.
  it('should say an answer of another shape could not be read, with Retry', async () => {
    fetchMock.mockImplementation(async () =>
      jsonResponse({ insurance: [], case_studies: null, insights: 'nope' }),
    );
    renderWithClient(<SearchResults />, {
      path: '/demo/search-results?search=warranty',
      pattern: 'search-results',
    });
    expect(await screen.findByText(/Our server's answer could not be read/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Retry/ })).toBeInTheDocument();
    expect(screen.queryByText(/Cannot read properties/)).not.toBeInTheDocument();
  });
});
