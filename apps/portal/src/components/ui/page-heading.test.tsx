import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { NotFoundRoute } from '@/app/routes/not-found';
import { documentTitleOf } from '@/lib/document-title';
import { makeClient } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';

import { PageHeading } from './page-heading';

describe('PageHeading', () => {
  it("ends the tab's title with the client's name, so two clients' tabs can be told apart", async () => {
    renderWithClient(<PageHeading lead="Lead">Contractors All Risks Calculator</PageHeading>, {
      client: makeClient({ name: 'Northbank Homes' }),
      path: '/northbank/calculator/contractors-all-risks',
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Contractors All Risks Calculator' }),
    ).toBeInTheDocument();
    await waitFor(() =>
      expect(document.title).toBe('Contractors All Risks Calculator – Northbank Homes'),
    );
  });

  it('takes the title of the page from documentTitle when the heading is not plain text', async () => {
    renderWithClient(
      <PageHeading documentTitle="Search results">
        <span>Search results</span>
      </PageHeading>,
      { client: makeClient({ name: 'Demo Developments' }), path: '/demo/search' },
    );
    await waitFor(() => expect(document.title).toBe('Search results – Demo Developments'));
  });

  it("names the client on the 404 page under a client's prefix", async () => {
    renderWithClient(<NotFoundRoute />, {
      client: makeClient({ name: 'Demo Developments' }),
      path: '/demo/nowhere',
    });
    await waitFor(() => expect(document.title).toBe('404 Not Found – Demo Developments'));
  });

  it('leaves the title alone without a client', () => {
    expect(documentTitleOf('404 Not Found', undefined)).toBe('404 Not Found');
  });
});
