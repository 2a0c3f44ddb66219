import { PageHeading } from '@/components/ui/page-heading';
import { LoadState } from '@/components/ui/load-state';
import { Notice } from '@/components/ui/notice';
import { useContent } from '@/features/content/api/get-content';
import { TopicAccordion } from '@/features/content/components/topic-accordion';
import { useClient } from '@/hooks/use-client';

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
      <LoadState
        error={error}
        isLoading={isLoading}
        label="Loading topics…"
        onRetry={() => void mutate()}
      />
      {data && data.insurance.length > 0 ? (
        <TopicAccordion topics={data.insurance} headingLevel={2} />
      ) : null}
      {data && data.insurance.length === 0 ? (
        <Notice>No topics have been published yet.</Notice>
      ) : null}
    </>
  );
}
