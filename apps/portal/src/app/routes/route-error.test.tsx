import { defaultTheme } from '@firm/ui';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, data, Outlet, RouterProvider } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { CLIENT_ROUTE_ID } from '@/hooks/use-loaded-client';
import { ApiError, UNREADABLE_ANSWER_MESSAGE, UnreadableAnswerError } from '@/lib/api-client';
import { makeClient } from '@/testing/fixtures';

import { lazyPage } from '../router';

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

  // Found by the nineteenth session's probe: a failed call the page needed showed the browser's "Failed to fetch",
  // and no way to try again.
  describe('given a call the page needed that failed', () => {
    it.each([
      ['no answer', () => new TypeError('Failed to fetch'), 'The connection to our server failed.'],
      ['an unreadable answer', () => new UnreadableAnswerError(200), UNREADABLE_ANSWER_MESSAGE],
      [
        'a 503',
        () => new ApiError(503, 'The portal cannot reach its database just now.'),
        'The portal cannot reach its database just now.',
      ],
      // Found by the thirtieth session's probe: an answer that never came (the client's, from the 404 page into the
      // hub) showed the wait's internal reason and no way to try again.
      [
        'an answer that did not come in time',
        () => new DOMException('The server did not answer in time.', 'TimeoutError'),
        'Our server took too long to answer.',
      ],
    ])(
      'should say %s in the portal’s words and offer to load the page again',
      async (_, failure, said) => {
        renderFailingPage(() => {
          throw failure();
        });
        expect(await screen.findByRole('heading', { level: 1, name: 'Oops!' })).toBeVisible();
        expect(screen.getByText(said)).toBeVisible();
        expect(screen.queryByText('Failed to fetch')).not.toBeInTheDocument();
        const reload = vi.fn();
        vi.stubGlobal('location', { ...window.location, reload });
        try {
          await userEvent
            .setup()
            .click(screen.getByRole('button', { name: 'Load the page again' }));
          expect(reload).toHaveBeenCalledOnce();
        } finally {
          vi.unstubAllGlobals();
        }
      },
    );
  });

  // A known fault: the page replaces the one whose link or button had focus, which fell to the document.
  describe('given nothing focused when it is shown', () => {
    it('should take keyboard focus to its heading', async () => {
      renderFailingPage(() => {
        throw new Error('Broken');
      });
      const heading = await screen.findByRole('heading', { level: 1, name: 'Oops!' });
      await waitFor(() => expect(heading).toHaveFocus());
    });
  });

  describe('given focus the user has put somewhere that stays', () => {
    it('should leave it there', async () => {
      const field = document.createElement('input');
      field.setAttribute('aria-label', 'Elsewhere');
      document.body.append(field);
      try {
        field.focus();
        renderFailingPage(() => {
          throw new Error('Broken');
        });
        expect(await screen.findByRole('heading', { level: 1, name: 'Oops!' })).toBeVisible();
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(field).toHaveFocus();
      } finally {
        field.remove();
      }
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

describe('RouteErrorBoundary, given a page whose code could not be fetched', () => {
  // Found by the seventeenth session's portal probe: the page showed the browser's "Failed to fetch dynamically
  // imported module: …" and stayed so (React Router keeps a lazy route's first outcome) until a reload.
  it('should say the page could not be loaded, in the portal’s words, and offer to load it again', async () => {
    const router = createMemoryRouter(
      [
        {
          id: CLIENT_ROUTE_ID,
          path: '/:client',
          loader: () => makeClient(),
          element: <Outlet />,
          HydrateFallback: () => null,
          // As in the hub (app/router.tsx): the pages sit under a route whose error element shows their errors.
          children: [
            {
              errorElement: <RouteErrorBoundary />,
              children: [
                { path: 'dashboard', element: <p>Dashboard</p> },
                {
                  path: 'info',
                  lazy: lazyPage(() =>
                    Promise.reject(
                      new TypeError(
                        'Failed to fetch dynamically imported module: /assets/info-x.js',
                      ),
                    ),
                  ),
                },
              ],
            },
          ],
        },
      ],
      { initialEntries: ['/demo/dashboard'] },
    );
    render(
      <ThemeProvider theme={defaultTheme}>
        <RouterProvider router={router} />
      </ThemeProvider>,
    );
    // Another page first: the page is reached by a link, as in the hub.
    expect(await screen.findByText('Dashboard')).toBeVisible();
    await router.navigate('/demo/info');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This page could not be loaded' }),
    ).toBeVisible();
    expect(screen.queryByText(/Failed to fetch/)).toBeNull();
    expect(screen.queryByText('Oops!')).toBeNull();
    const reload = vi.fn();
    vi.spyOn(window, 'location', 'get').mockReturnValue({ ...window.location, reload });
    await userEvent.click(screen.getByRole('button', { name: 'Load the page again' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
