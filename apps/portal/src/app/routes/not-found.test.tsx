import { defaultTheme } from '@firm/ui';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { ThemeProvider } from 'styled-components';
import { describe, expect, it } from 'vitest';

import { env } from '@/config/env';
import { mailtoHref } from '@/lib/links';
import { makeClient } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';

import { NotFoundRoute } from './not-found';

describe('NotFoundRoute', () => {
  it('links a logged-in user to the dashboard', async () => {
    renderWithClient(<NotFoundRoute />, {
      client: makeClient({ logged_in: true }),
      path: '/demo/no-such-page',
    });
    expect(await screen.findByRole('link', { name: 'Go to the dashboard' })).toHaveAttribute(
      'href',
      '/demo/dashboard',
    );
  });

  it('links a visitor without a session to the login page', async () => {
    renderWithClient(<NotFoundRoute />, {
      client: makeClient({ logged_in: false }),
      path: '/demo/no-such-page',
    });
    expect(await screen.findByRole('link', { name: 'Go to the login page' })).toHaveAttribute(
      'href',
      '/demo/login',
    );
  });

  // Found by the thirty-first session's portal probe: an unknown client's 404 page had nothing to Tab to, a dead
  // end for a keyboard user. It has no client to offer a page of; the way on is the team, by e-mail, as on the
  // error page when the client could not be loaded (spec §2: the error page's contact-us mail link).
  it('gives a visitor of an unknown client a contact link to reach by keyboard', async () => {
    const router = createMemoryRouter([{ path: '*', element: <NotFoundRoute /> }], {
      initialEntries: ['/no-such-client/dashboard'],
    });
    render(
      <ThemeProvider theme={defaultTheme}>
        <RouterProvider router={router} />
      </ThemeProvider>,
    );
    const link = await screen.findByRole('link', { name: 'contact us' });
    expect(link).toHaveAttribute('href', mailtoHref(env.fallbackContactEmail));
    await userEvent.tab();
    expect(link).toHaveFocus();
  });
});
