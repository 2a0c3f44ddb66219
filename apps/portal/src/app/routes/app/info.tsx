import type { LoaderFunctionArgs } from 'react-router-dom';

import { LateAnswerPlace } from '@/components/ui/late-answer-place';
import { PageHeading } from '@/components/ui/page-heading';
import { LoadState } from '@/components/ui/load-state';
import { Notice } from '@/components/ui/notice';
import { paths } from '@/config/paths';
import { getContent, useContent } from '@/features/content/api/get-content';
import { TopicAccordion } from '@/features/content/components/topic-accordion';
import { useClient } from '@/hooks/use-client';
import { fetchPageAnswers } from '@/lib/page-answers';

/**
 * The topics, fetched before the page is shown (the previous page stays, under the navigation bar, meanwhile):
 * drawn under "Loading topics…", they pushed the footer's banner away on a phone (a layout shift of 0.85 with the
 * answer 1.5 s slow, found by a hostile run).
 */
export async function loader({ params, request }: LoaderFunctionArgs): Promise<null> {
  const prefix = params.client ?? '';
  await fetchPageAnswers(
    [[paths.api.content(prefix), (signal) => getContent(prefix, signal)]],
    request.signal,
  );
  return null;
}

/** Once shown, the page keeps its answer up to date through SWR (focus, Retry), not by its loader. */
export const shouldRevalidate = () => false;

/** /{client}/info: the information hub's topics as an accordion. */
export function Component() {
  const { prefix } = useClient();
  const { data, error, isLoading, mutate } = useContent(prefix);

  return (
    <>
      <PageHeading
        documentTitle="Information Hub"
        lead="The insurances a development needs, explained by our advisers."
      >
        Information Hub
      </PageHeading>
      {/* Topics later than the loader's wait arrive with the footer left out meanwhile, pushing nothing down. */}
      <LateAnswerPlace waiting={isLoading}>
        <LoadState
          error={error}
          isLoading={isLoading}
          hasData={data !== undefined}
          label="Loading topics…"
          onRetry={() => void mutate()}
        />
        {data && data.insurance.length > 0 ? (
          <TopicAccordion topics={data.insurance} headingLevel={2} />
        ) : null}
        {data && data.insurance.length === 0 ? (
          <Notice>No topics have been published yet.</Notice>
        ) : null}
      </LateAnswerPlace>
    </>
  );
}
