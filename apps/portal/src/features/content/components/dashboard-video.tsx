import { containMarksCss, Spinner } from '@firm/ui';
import { useId } from 'react';
import styled from 'styled-components';

import { SafeHtml } from '@/components/safe-html';
import type { Video } from '@/types/api';

/** The dashboard video: poster, native controls, and an English captions track when there is one. */
export function DashboardVideo({ video }: { video: Video }) {
  const titleId = useId();
  return (
    <Figure aria-labelledby={titleId}>
      <Player controls preload="metadata" poster={video.poster} aria-labelledby={titleId}>
        <source src={video.src} />
        {video.captions ? (
          <track kind="captions" src={video.captions} srcLang="en" label="English" default />
        ) : null}
      </Player>
      <figcaption>
        <Title id={titleId}>{video.title}</Title>
        {/* The title is no heading: the description's headings come straight under the page's h1. */}
        {video.description ? <Description html={video.description} headingsFrom={2} /> : null}
      </figcaption>
    </Figure>
  );
}

/**
 * The video's place while its answer is late (past the dashboard loader's wait): the player's box, with the
 * spinner in it, so that the video arriving does not push the cards down (found by the twenty-fifth session's
 * portal probe: a layout shift of 0.34, 0.60 on a phone).
 */
export function DashboardVideoPlace({ label }: { label: string }) {
  return (
    <Figure>
      <Place>
        <Spinner label={label} />
      </Place>
    </Figure>
  );
}

const Place = styled.div`
  display: grid;
  place-items: center;
  width: 100%;
  aspect-ratio: 16 / 9;
  border-radius: ${({ theme }) => theme.radius.md};
  border: 1px solid ${({ theme }) => theme.color.divider};
  background: ${({ theme }) => theme.color.surface};
`;

const Figure = styled.figure`
  margin: 0 0 ${({ theme }) => theme.space.lg};
  max-width: 56rem;
`;

const Player = styled.video`
  display: block;
  width: 100%;
  aspect-ratio: 16 / 9;
  background: #000;
  border-radius: ${({ theme }) => theme.radius.md};
`;

const Title = styled.p`
  margin: ${({ theme }) => `${theme.space.sm} 0 ${theme.space.xxs}`};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  /* Stacked combining marks stay on the title, off the video and the description. */
  ${containMarksCss}
`;

const Description = styled(SafeHtml)`
  color: ${({ theme }) => theme.color.muted};
`;
