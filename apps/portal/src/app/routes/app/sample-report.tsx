import { Spinner } from '@firm/ui';
import { useEffect, useState } from 'react';
import styled from 'styled-components';

import { LoadState } from '@/components/ui/load-state';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { mediaTypeOf } from '@/lib/api-client';

/** What the page says when the report is not there to show (the server's 404 or 500, another page instead). */
export const REPORT_UNAVAILABLE_MESSAGE = 'The sample report could not be loaded.';

/** How long the check of the report may take before the page says the server took too long. */
const CHECK_TIMEOUT_MS = 30_000;

type Check = { state: 'checking' } | { state: 'available' } | { state: 'failed'; error: unknown };

/**
 * Asks the server for the report's headers only: it must answer with the PDF. Rejects with a TypeError when the
 * server cannot be reached, a TimeoutError when it takes too long, and an error of our own words otherwise.
 */
async function checkReport(signal: AbortSignal): Promise<void> {
  const response = await fetch(paths.static.sampleReport, {
    method: 'HEAD',
    cache: 'no-store',
    credentials: 'same-origin',
    signal,
  });
  const mediaType = mediaTypeOf(response.headers.get('content-type'));
  if (!response.ok || mediaType !== 'application/pdf') throw new Error(REPORT_UNAVAILABLE_MESSAGE);
}

/**
 * /{client}/sample-report: the sample due-diligence report, embedded with the browser's own PDF viewer (no PDF
 * code in the bundle), a loading placeholder until the frame has loaded, and a download link.
 *
 * Found by the eighteenth session's portal probe: a frame's load event fires for an error page too, so offline
 * the frame showed the browser's "No internet" page, and on a server error the raw `{"error":"Not found"}`, both
 * as 'loaded'. The report is now checked first (its headers only) and the frame shown once the server answers
 * with the PDF; otherwise the page says so, as every page does, with Retry.
 */
export function Component() {
  const [check, setCheck] = useState<Check>({ state: 'checking' });
  const [attempt, setAttempt] = useState(0);
  const [frameLoaded, setFrameLoaded] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    let current = true;
    const timer = setTimeout(
      () => controller.abort(new DOMException('The check took too long.', 'TimeoutError')),
      CHECK_TIMEOUT_MS,
    );
    checkReport(controller.signal).then(
      () => {
        if (current) setCheck({ state: 'available' });
      },
      (error: unknown) => {
        if (current) setCheck({ state: 'failed', error });
      },
    );
    return () => {
      current = false;
      clearTimeout(timer);
      controller.abort();
    };
  }, [attempt]);

  const state = check.state === 'failed' ? 'failed' : frameLoaded ? 'loaded' : 'loading';

  return (
    <>
      <PageHeading lead="An example of the insurance due diligence report we prepare for a development.">
        Sample Report
      </PageHeading>
      <p>
        <a href={paths.static.sampleReport} download="sample-due-diligence-report.pdf">
          Download the sample report (PDF)
        </a>
      </p>
      <Viewer data-state={state}>
        {check.state === 'failed' ? (
          <LoadState
            error={check.error}
            isLoading={false}
            onRetry={() => {
              setCheck({ state: 'checking' });
              setFrameLoaded(false);
              setAttempt((count) => count + 1);
            }}
          />
        ) : (
          <>
            {state === 'loading' ? (
              <Placeholder>
                <Spinner label="Loading the sample report…" />
              </Placeholder>
            ) : null}
            {check.state === 'available' ? (
              <Frame
                src={paths.static.sampleReport}
                title="Sample insurance due diligence report (PDF)"
                onLoad={() => setFrameLoaded(true)}
              />
            ) : null}
          </>
        )}
      </Viewer>
    </>
  );
}

const Viewer = styled.div`
  position: relative;
  height: min(80vh, 60rem);
  min-height: 24rem;
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.md};
  overflow: hidden;
  background: ${({ theme }) => theme.color.surface};

  &[data-state='loading'] iframe {
    visibility: hidden;
  }

  /* The failure notice alone, as on other pages: no empty frame around it. */
  &[data-state='failed'] {
    height: auto;
    min-height: 0;
    border: 0;
    background: none;
    overflow: visible;
  }
`;

const Placeholder = styled.div`
  position: absolute;
  inset: 0;
  display: grid;
  place-items: center;
`;

const Frame = styled.iframe`
  display: block;
  width: 100%;
  height: 100%;
  border: 0;
`;
