import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { InsideMainLandmark } from '@/lib/main-landmark';
import { renderingAsTheAppDoes, renderRoutesAsTheAppDoes } from '@/testing/render-as-the-app-does';

import { NotFoundPage, RouteErrorPage } from './error-pages';

// The error pages' chunk cannot be fetched (the connection dropped before the app fetched it).
vi.mock('./route-error', () => {
  throw new TypeError('Failed to fetch dynamically imported module: /assets/route-error-x.js');
});

async function renderAt(path: string, insideMain = false) {
  await renderRoutesAsTheAppDoes(
    [
      {
        path: '/',
        loader: () => {
          throw new Error('The content store is unavailable');
        },
        element: <p>never</p>,
        errorElement: <RouteErrorPage />,
        HydrateFallback: () => null,
      },
      { path: '*', element: <NotFoundPage /> },
    ],
    path,
    (router) => <InsideMainLandmark value={insideMain}>{router}</InsideMainLandmark>,
  );
}

renderingAsTheAppDoes();

describe('the error pages, when their code cannot be fetched', () => {
  it('should say the portal could not be loaded and offer to load the page again, as the entry does', async () => {
    await renderAt('/no-such-page');
    const heading = await screen.findByRole('heading', {
      level: 1,
      name: 'The portal could not be loaded',
    });
    expect(heading).toHaveFocus();
    expect(screen.getByRole('main')).toContainElement(heading);
    expect(screen.getByRole('button', { name: 'Load the page again' })).toBeVisible();
    expect(document.title).toBe('The portal could not be loaded – Client Hub');
  });

  it('should say so for a failed route too, with no second main landmark inside the hub', async () => {
    await renderAt('/', true);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'The portal could not be loaded' }),
    ).toBeVisible();
    expect(screen.queryByRole('main')).toBeNull();
  });
});
