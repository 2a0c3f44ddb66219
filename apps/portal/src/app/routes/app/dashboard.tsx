import { Card } from '@firm/ui';
import type { LoaderFunctionArgs } from 'react-router-dom';
import styled from 'styled-components';

import { PageHeading } from '@/components/ui/page-heading';
import { LoadState } from '@/components/ui/load-state';
import { RouterLink } from '@/components/ui/router-link';
import { paths } from '@/config/paths';
import { getContent, useContent } from '@/features/content/api/get-content';
import { getVideo, useVideo } from '@/features/content/api/get-video';
import { CardGrid, ContentRow, SectionTitle } from '@/features/content/components/content-row';
import { DashboardVideo, DashboardVideoPlace } from '@/features/content/components/dashboard-video';
import { useClient } from '@/hooks/use-client';
import { fetchPageAnswers } from '@/lib/page-answers';

/** The four 'Where to start' cards (spec §2), in the spec's order. */
const WHERE_TO_START = [
  {
    title: 'Information hub',
    text: 'Plain answers on every insurance a development needs, with tips from our advisers.',
    href: paths.app.info,
  },
  {
    title: 'Insurance guide',
    text: 'Who buys which insurance, and when, from site acquisition to completion.',
    href: paths.app.insuranceGuide,
  },
  {
    title: 'Insurance framework',
    text: 'The insurance programme your project needs, with recommended limits.',
    href: paths.app.insuranceFramework,
  },
  {
    title: 'Sample report',
    text: 'See what an insurance due diligence report from us looks like.',
    href: paths.app.sampleReport,
  },
] as const;

/**
 * The video and the articles, fetched before the dashboard is shown (the previous page stays, under the navigation
 * bar, meanwhile): the video sits above the cards, and arriving after them it pushed the whole page down.
 */
export async function loader({ params, request }: LoaderFunctionArgs): Promise<null> {
  const prefix = params.client ?? '';
  await fetchPageAnswers(
    [
      [paths.api.video(prefix), (signal) => getVideo(prefix, signal)],
      [paths.api.content(prefix), (signal) => getContent(prefix, signal)],
    ],
    request.signal,
  );
  return null;
}

/** Once shown, the dashboard keeps its answers up to date through SWR (focus, Retry), not by its loader. */
export const shouldRevalidate = () => false;

export function Component() {
  const { prefix, client } = useClient();
  const video = useVideo(prefix);
  const content = useContent(prefix);

  return (
    <>
      <PageHeading lead={client.name}>Dashboard</PageHeading>

      {video.isLoading && !video.error ? (
        // Late (past the loader's wait): the player's place is kept until the video comes.
        <DashboardVideoPlace label="Loading the video…" />
      ) : (
        <LoadState
          error={video.error}
          isLoading={video.isLoading}
          hasData={video.data !== undefined}
          label="Loading the video…"
          onRetry={() => void video.mutate()}
        />
      )}
      {video.data ? <DashboardVideo video={video.data} /> : null}

      <section aria-labelledby="where-to-start">
        <SectionTitle id="where-to-start">Where to start</SectionTitle>
        <CardGrid>
          {WHERE_TO_START.map((card) => (
            <li key={card.title}>
              <Card
                title={card.title}
                text={card.text}
                href={card.href(prefix)}
                linkComponent={RouterLink}
              />
            </li>
          ))}
        </CardGrid>
      </section>

      <LoadState
        error={content.error}
        isLoading={content.isLoading}
        hasData={content.data !== undefined}
        label="Loading articles…"
        onRetry={() => void content.mutate()}
      />
      {content.data && content.data.case_studies.length > 0 ? (
        <ContentRow prefix={prefix} title="Case Studies" items={content.data.case_studies} />
      ) : null}
      {content.data && content.data.insights.length > 0 ? (
        <ContentRow prefix={prefix} title="Insights" items={content.data.insights} />
      ) : null}
      <Spacer />
    </>
  );
}

const Spacer = styled.div`
  height: ${({ theme }) => theme.space.md};
`;
