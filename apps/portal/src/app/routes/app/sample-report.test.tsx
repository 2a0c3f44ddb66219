import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';

import { UNREACHABLE_MESSAGE } from '@/lib/errors';
import { jsonResponse } from '@/testing/fixtures';
import { renderWithClient } from '@/testing/test-utils';
import { mockFetch } from '@/testing/mock-fetch';

import { Component as SampleReport, REPORT_UNAVAILABLE_MESSAGE } from './sample-report';

const fetchMock = mockFetch();

/** The report's answer to the page's check. */
const pdf = () =>
  new Response(null, { status: 200, headers: { 'content-type': 'application/pdf' } });

const viewer = () => document.querySelector('[data-state]');
const frame = () => document.querySelector('iframe');

function renderPage() {
  return renderWithClient(<SampleReport />, { path: '/demo/sample-report' });
}

describe('SampleReport', () => {
  it('should show the report in a frame once the server has it, loading until the frame has loaded', async () => {
    fetchMock.mockResolvedValue(pdf());
    renderPage();

    await waitFor(() => expect(frame()).not.toBeNull());
    expect(fetchMock).toHaveBeenCalledWith(
      '/sample-report.pdf',
      expect.objectContaining({ method: 'HEAD' }),
    );
    expect(frame()).toHaveAttribute('src', '/sample-report.pdf');
    expect(frame()).toHaveAttribute('title', 'Sample insurance due diligence report (PDF)');
    expect(viewer()).toHaveAttribute('data-state', 'loading');
    expect(screen.getByRole('status')).toHaveTextContent('Loading the sample report…');

    fireEvent.load(frame()!);
    expect(viewer()).toHaveAttribute('data-state', 'loaded');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
  });

  // Found by the eighteenth session's portal probe: a frame's load event fires for an error page too, so offline
  // the frame showed the browser's "No internet" page, and on a server error the raw {"error":"Not found"},
  // both as data-state "loaded", with nothing to retry.
  it.each([
    [
      'the server cannot be reached',
      () => Promise.reject(new TypeError('Failed to fetch')),
      UNREACHABLE_MESSAGE,
    ],
    [
      'the server has no report',
      () => Promise.resolve(jsonResponse({ error: 'Not found' }, { status: 404 })),
      REPORT_UNAVAILABLE_MESSAGE,
    ],
    [
      'the server errs',
      () => Promise.resolve(jsonResponse({ error: 'Internal server error' }, { status: 500 })),
      REPORT_UNAVAILABLE_MESSAGE,
    ],
    [
      'another page answers (a captive portal)',
      () =>
        Promise.resolve(
          new Response('<p>Sign in to the Wi-Fi</p>', { headers: { 'content-type': 'text/html' } }),
        ),
      REPORT_UNAVAILABLE_MESSAGE,
    ],
  ])(
    'should say so with Retry when %s, and show the report after Retry',
    async (_, answer, message) => {
      fetchMock.mockImplementationOnce(answer);
      renderPage();

      expect(await screen.findByRole('alert')).toHaveTextContent(message);
      expect(frame()).toBeNull();
      expect(viewer()).toHaveAttribute('data-state', 'failed');
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      // The heading and the download stay.
      expect(screen.getByRole('heading', { level: 1, name: 'Sample Report' })).toBeInTheDocument();
      expect(
        screen.getByRole('link', { name: 'Download the sample report (PDF)' }),
      ).toHaveAttribute('href', '/sample-report.pdf');

      fetchMock.mockResolvedValue(pdf());
      await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
      await waitFor(() => expect(frame()).not.toBeNull());
      expect(screen.queryByRole('alert')).not.toBeInTheDocument();
      expect(viewer()).toHaveAttribute('data-state', 'loading');
      fireEvent.load(frame()!);
      expect(viewer()).toHaveAttribute('data-state', 'loaded');
    },
  );
});
