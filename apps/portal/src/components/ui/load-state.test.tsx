import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';

import { ApiError } from '@/lib/api-client';
import { renderWithClient } from '@/testing/test-utils';

import { LoadState } from './load-state';

describe('LoadState', () => {
  it('offers Retry for a failure that may pass', async () => {
    const onRetry = vi.fn();
    renderWithClient(
      <LoadState
        error={new ApiError(503, 'Internal server error')}
        isLoading={false}
        onRetry={onRetry}
      />,
      { path: '/demo/info' },
    );
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Retry' }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it('offers Log in again, back to this page, when the session has ended', async () => {
    renderWithClient(
      <LoadState
        error={new ApiError(401, 'You are not logged in. Please log in again.')}
        isLoading={false}
        onRetry={vi.fn()}
      />,
      { path: '/demo/info' },
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You are not logged in. Please log in again.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    const link = screen.getByRole('link', { name: 'Log in again' });
    expect(link).toHaveAttribute('href', '/demo/login');
  });
});
