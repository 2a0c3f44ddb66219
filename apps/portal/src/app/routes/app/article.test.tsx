import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { jsonResponse } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';
import { mockFetch } from '@/testing/mock-fetch';

import { Component as Article } from './article';

const fetchMock = mockFetch();

afterEach(() => {
  document.title = '';
});

function answerArticleWith(response: () => Response) {
  fetchMock.mockImplementation(async (input) =>
    String(input).startsWith('/api/demo/article')
      ? response()
      : new Response(null, { status: 204 }),
  );
}

const path = '/demo/article?id=a1&type=insight';

/** The API's answer for `path`. */
const ARTICLE = {
  id: 'a1',
  type: 'insight',
  title: 'Harbour Quay',
  image_url: null,
  description: '<p>Forty-two flats.</p>',
  related: [],
};

describe('Article', () => {
  // Found by the eighteenth session's portal probe: an article that could not be loaded showed "Go Back",
  // the failure and Retry with no h1 (axe page-has-heading-one), and the tab's title stayed "Client Hub".
  it.each([
    [500, 'Internal server error', 'Retry'],
    [401, 'You are not logged in. Please log in again.', 'Log in again'],
  ])(
    'should have an h1 and the title of the page when the article answers %i',
    async (status, message, action) => {
      answerArticleWith(() => jsonResponse({ error: message }, { status }));
      renderWithClient(<Article />, { path, pattern: 'article' });

      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(screen.getByText(action)).toBeInTheDocument();
      expect(screen.getByRole('heading', { level: 1, name: 'Article' })).toBeInTheDocument();
      await waitFor(() => expect(document.title).toBe('Article – Demo Developments'));
    },
  );

  it('should have an h1 while the article loads, and the title of the article once it is there', async () => {
    let answer: (response: Response) => void = () => undefined;
    answerArticleWith(() => new Response(null, { status: 204 }));
    fetchMock.mockImplementationOnce(
      () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    );
    renderWithClient(<Article />, { path, pattern: 'article' });

    expect(await screen.findByRole('heading', { level: 1, name: 'Article' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Loading the article…');
    await waitFor(() => expect(document.title).toBe('Article – Demo Developments'));

    answer(jsonResponse(ARTICLE));
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Harbour Quay' }),
    ).toBeInTheDocument();
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
    await waitFor(() => expect(document.title).toBe('Harbour Quay – Demo Developments'));
  });
});

// Found by the twenty-fifth session's probe: an image that could not be loaded left its 16:9 box empty above the
// title, with the browser's broken-image sign.
describe('Article image', () => {
  it('should show the image, and take it away when it cannot be loaded', async () => {
    answerArticleWith(() => jsonResponse({ ...ARTICLE, image_url: '/media/demo/missing.png' }));
    const { container } = renderWithClient(<Article />, { path, pattern: 'article' });
    await screen.findByRole('heading', { level: 1, name: 'Harbour Quay' });
    const image = container.querySelector('article img');
    expect(image).toHaveAttribute('src', '/media/demo/missing.png');
    fireEvent.error(image!);
    await waitFor(() => expect(container.querySelector('article img')).toBeNull());
    expect(screen.getByRole('heading', { level: 1, name: 'Harbour Quay' })).toBeInTheDocument();
  });
});

// Found by the twenty-second session's portal probe: the view was recorded from the address, so a link naming no
// article wrote text of its author's choosing into the log of whoever opened it.
describe('Article view activity', () => {
  const activities = () =>
    fetchMock.mock.calls
      .filter(([input]) => String(input) === '/api/demo/activity')
      .map(([, init]) => JSON.parse(String(init?.body)) as { action: string; item: string });

  it('should record the view of an article that has loaded, under its own type and id', async () => {
    answerArticleWith(() => jsonResponse(ARTICLE));
    renderWithClient(<Article />, { path, pattern: 'article' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Harbour Quay' })).toBeVisible();
    await waitFor(() => expect(activities()).toEqual([{ action: 'view', item: 'insight:a1' }]));
  });

  it.each([
    ['/demo/article?id=%3DHYPERLINK(%22http%3A%2F%2Fevil.example%22)&type=insight', 404],
    ['/demo/article?id=a&type=%3D1%2B1', 404],
    ['/demo/article?type=insight', 404],
  ])('should record nothing for %s, which names no article', async (address, status) => {
    answerArticleWith(() => jsonResponse({ error: 'Not found.' }, { status }));
    renderWithClient(<Article />, { path: address, pattern: 'article' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Article not found' }),
    ).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(activities()).toEqual([]);
  });
});
