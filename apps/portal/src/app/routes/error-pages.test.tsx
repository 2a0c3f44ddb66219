import { defaultTheme } from '@firm/ui';
import { act, screen } from '@testing-library/react';
import { startTransition, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { makeClient } from '@/testing/fixtures';

import { loadErrorPages, NotFoundPage, RouteErrorPage } from './error-pages';

/** The router's error element and 404 page as app/router.tsx places them, under a client's route. */
async function renderAt(path: string) {
  const router = createMemoryRouter(
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
    { initialEntries: [path] },
  );
  await renderAsTheAppDoes(
    <ThemeProvider theme={defaultTheme}>
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
}

let root: Root | undefined;

/** Renders as src/start.tsx does: the first render is a transition (React Router's navigations are too). */
async function renderAsTheAppDoes(ui: ReactNode) {
  const container = document.body.appendChild(document.createElement('div'));
  root = createRoot(container);
  await act(async () => startTransition(() => root?.render(ui)));
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  act(() => root?.unmount());
  document.body.replaceChildren();
  vi.restoreAllMocks();
});

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
