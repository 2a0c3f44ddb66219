import { Spinner } from '@firm/ui';
import { useState } from 'react';
import styled from 'styled-components';

import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';

/**
 * /{client}/sample-report: the sample due-diligence report, embedded with the browser's own PDF viewer (no PDF
 * code in the bundle), a loading placeholder until the frame has loaded, and a download link.
 */
export function Component() {
  const [state, setState] = useState<'loading' | 'loaded'>('loading');

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
        {state === 'loading' ? (
          <Placeholder>
            <Spinner label="Loading the sample report…" />
          </Placeholder>
        ) : null}
        <Frame
          src={paths.static.sampleReport}
          title="Sample insurance due diligence report (PDF)"
          onLoad={() => setState('loaded')}
        />
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
