import { act, screen } from '@testing-library/react';
import { SWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { LoadState } from '@/components/ui/load-state';
import { jsonResponse } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';

import { useContent } from './get-content';

/** A page drawing the content call, as the dashboard (articles) and the information hub (topics) do. */
function ContentPage({ label }: { label: string }) {
  const { data, error, isLoading, mutate } = useContent('demo');
  return (
    <>
      <LoadState error={error} isLoading={isLoading} label={label} onRetry={() => void mutate()} />
      {data?.insurance.map((topic) => (
        <p key={topic.id}>{topic.title}</p>
      ))}
    </>
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('useContent', () => {
  // Found by the twenty-sixth session: SWR asks nothing as a page opens on a key whose last call failed while
  // another component (the page being left) still uses it, so the information hub opened from a dashboard whose
  // articles had failed showed that failure until Retry.
  it('asks again as a page opens straight from another page whose call failed', async () => {
    let answer: (response: Response) => void = () => {};
    const fetchMock = vi
      .fn<typeof fetch>()
      .mockResolvedValueOnce(jsonResponse({ message: 'Internal server error' }, { status: 500 }))
      .mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const { router } = renderWithClient(
      <SWRConfig value={{ shouldRetryOnError: false }}>
        <ContentPage key="dashboard" label="Loading articles…" />
      </SWRConfig>,
      {
        path: '/demo/dashboard',
        routes: [
          {
            path: 'info',
            element: (
              <SWRConfig value={{ shouldRetryOnError: false }}>
                <ContentPage key="info" label="Loading topics…" />
              </SWRConfig>
            ),
          },
        ],
      },
    );
    await screen.findByRole('button', { name: 'Retry' });

    await act(() => router.navigate('/demo/info'));
    expect(await screen.findByRole('status')).toHaveTextContent('Loading topics…');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
    await act(async () =>
      answer(
        jsonResponse({
          insights: [],
          case_studies: [],
          insurance: [
            { id: 'car', title: 'Contractors all risks', description: '<p>x</p>', pro_tip: null },
          ],
        }),
      ),
    );
    expect(await screen.findByText('Contractors all risks')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});
