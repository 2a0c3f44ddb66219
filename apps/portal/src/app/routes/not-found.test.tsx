import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

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
});
