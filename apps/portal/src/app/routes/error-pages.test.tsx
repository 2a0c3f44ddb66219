import { screen } from '@testing-library/react';
import { Outlet } from 'react-router-dom';
import { describe, expect, it } from 'vitest';

import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { makeClient } from '@/testing/fixtures';
import { renderingAsTheAppDoes, renderRoutesAsTheAppDoes } from '@/testing/render-as-the-app-does';

import { loadErrorPages, NotFoundPage, RouteErrorPage } from './error-pages';

/** The router's error element and 404 page as app/router.tsx places them, under a client's route. */
async function renderAt(path: string) {
  await renderRoutesAsTheAppDoes(
    [
      {
        id: CLIENT_ROUTE_ID,
        path: '/:client',
        loader: () => makeClient({ logged_in: false }),
        element: <Outlet />,
        errorElement: <RouteErrorPage />,
        HydrateFallback: () => null,
        children: [
          {
            path: 'info',
            loader: () => {
              throw new Error('The content store is unavailable');
            },
            element: <p>never</p>,
          },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
    path,
  );
}

renderingAsTheAppDoes();

// The login page no longer loads the error pages' code before it is drawn (the bundle budget): the router's error
// element and 404 page fetch it when needed, and the app fetches it once the first page is drawn.
describe('the error pages fetched apart', () => {
  it('should draw the 404 page of an unmatched address', async () => {
    await renderAt('/demo/no-such-page');
    expect(await screen.findByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Go to the login page' })).toBeVisible();
    expect(document.title).toBe('404 Not Found – Demo Developments');
  });

  it('should draw the error page of a route that failed', async () => {
    await renderAt('/demo/info');
    expect(await screen.findByRole('heading', { level: 1, name: 'Oops!' })).toBeVisible();
    expect(screen.getByText('The content store is unavailable')).toBeVisible();
  });

  it('should fetch their code once, however often it is asked for', async () => {
    const first = loadErrorPages();
    expect(loadErrorPages()).toBe(first);
    const pages = await first;
    expect(pages?.RouteErrorBoundary).toBeTypeOf('function');
    expect(pages?.NotFoundRoute).toBeTypeOf('function');
  });
});
