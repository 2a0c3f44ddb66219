import { defaultTheme } from '@firm/ui';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import type { RouteObject } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import { SWRConfig } from 'swr';

import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import type { Client } from '@/types/api';

import { makeClient } from './fixtures';

interface RenderOptions {
  client?: Client;
  /** The URL to start at, e.g. '/demo/dashboard'. */
  path: string;
  /** Route pattern relative to /:client for `ui` (default: the path's rest, e.g. 'dashboard'). */
  pattern?: string;
  /** Extra routes under /:client, e.g. the page a link leads to. */
  routes?: RouteObject[];
}

/**
 * Renders `ui` at `path` under a `/:client` route whose loader yields `client` (as the real router's does), with a
 * fresh SWR cache and the default theme. Returns Testing Library's result and the memory router.
 */
export function renderWithClient(ui: ReactElement, options: RenderOptions) {
  const client = options.client ?? makeClient();
  const [, , ...rest] = new URL(options.path, 'http://localhost').pathname.split('/');
  const router = createMemoryRouter(
    [
      {
        id: CLIENT_ROUTE_ID,
        path: '/:client',
        loader: () => client,
        element: <Outlet />,
        HydrateFallback: () => null,
        children: [
          { path: options.pattern ?? rest.join('/'), element: ui },
          ...(options.routes ?? []),
        ],
      },
    ],
    { initialEntries: [options.path] },
  );
  const result = render(
    <SWRConfig value={{ provider: () => new Map(), dedupingInterval: 0 }}>
      <ThemeProvider theme={defaultTheme}>
        <RouterProvider router={router} />
      </ThemeProvider>
    </SWRConfig>,
  );
  return { ...result, router };
}
