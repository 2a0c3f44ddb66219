import { defaultTheme } from '@firm/ui';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, data, Outlet, RouterProvider } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { makeClient } from '@/testing/fixtures';

import { RouteErrorBoundary } from './route-error';

function renderFailingPage(failure: () => never, email = 'help@provider.example') {
  const router = createMemoryRouter(
    [
      {
        id: CLIENT_ROUTE_ID,
        path: '/:client',
        loader: () => makeClient({ contact: { phone: '0', email } }),
        element: <Outlet />,
        HydrateFallback: () => null,
        children: [
          {
            path: 'info',
            loader: failure,
            element: <p>never</p>,
            errorElement: <RouteErrorBoundary />,
          },
        ],
      },
    ],
    { initialEntries: ['/demo/info'] },
  );
  render(
    <ThemeProvider theme={defaultTheme}>
      <RouterProvider router={router} />
    </ThemeProvider>,
  );
}

beforeEach(() => {
  vi.spyOn(console, 'error').mockImplementation(() => {});
});

afterEach(() => {
  vi.restoreAllMocks();
});

describe('RouteErrorBoundary', () => {
  describe('given an unexpected error', () => {
    it("should say 'Oops!', apologise, show the message and link to the provider by e-mail", async () => {
      renderFailingPage(() => {
        throw new Error('The content store is unavailable');
      });

      expect(await screen.findByRole('heading', { level: 1, name: 'Oops!' })).toBeVisible();
      expect(screen.getByText('Sorry, an unexpected error has occurred.')).toBeVisible();
      expect(screen.getByText('The content store is unavailable')).toBeVisible();
      expect(screen.getByRole('link', { name: 'contact us' })).toHaveAttribute(
        'href',
        'mailto:help@provider.example',
      );
    });
  });

  describe("given a contact address that would add headers to the mail ('?bcc=…')", () => {
    it('should link that one address, with no hidden copy', async () => {
      const email = 'help@provider.example?bcc=spy%40evil.example';
      renderFailingPage(() => {
        throw new Error('Broken');
      }, email);
      const link = await screen.findByRole('link', { name: 'contact us' });
      expect(link).toHaveAttribute(
        'href',
        'mailto:help@provider.example%3Fbcc=spy%2540evil.example',
      );
      expect(new URL(link.getAttribute('href') ?? '').search).toBe('');
    });
  });

  describe('given an error response', () => {
    it('should show its status text', async () => {
      renderFailingPage(() => {
        throw data(null, { status: 405, statusText: 'Method Not Allowed' });
      });
      expect(await screen.findByText('Method Not Allowed')).toBeVisible();
    });

    it("should show '404 Not Found' for a 404", async () => {
      renderFailingPage(() => {
        throw data(null, { status: 404, statusText: 'Not Found' });
      });
      expect(await screen.findByRole('heading', { level: 1, name: '404 Not Found' })).toBeVisible();
    });
  });
});
