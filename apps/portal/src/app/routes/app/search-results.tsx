import { Fragment, useEffect, useId, useRef, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router-dom';
import type { LoaderFunctionArgs } from 'react-router-dom';

import { LateAnswerPlace } from '@/components/ui/late-answer-place';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { LoadState } from '@/components/ui/load-state';
import { Notice } from '@/components/ui/notice';
import { StatusMessage } from '@/components/ui/status-message';
import { searchContent, useSearchContent } from '@/features/content/api/search-content';
import { ContentRow, SectionTitle } from '@/features/content/components/content-row';
import { TopicAccordion } from '@/features/content/components/topic-accordion';
import { searchText } from '@/features/content/utils/search-text';
import { useClient } from '@/hooks/use-client';
import { recordActivity } from '@/lib/activity';
import { fetchPageAnswers } from '@/lib/page-answers';

/**
 * Each search is fetched before the page shows it (the page before it, or the last results, stay under the
 * navigation bar meanwhile). Found by the twenty-fifth session's portal probe: the results arriving under a
 * "Searching…" line pushed the footer's 243 px banner from where they were to go, a layout shift of 0.48 on a
 * phone, at every search and on a results page opened directly.
 */
export async function loader({ params, request }: LoaderFunctionArgs): Promise<null> {
  const prefix = params.client ?? '';
  const text = searchText(new URL(request.url).searchParams.get('search'));
  if (text === '') return null;
  await fetchPageAnswers(
    [[paths.api.content(prefix, text), (signal) => searchContent(prefix, text, signal)]],
    request.signal,
  );
  return null;
}

/** /{client}/search-results?search=…: Information, Case Studies and Insights, or 'No results found'. */
export function Component() {
  const { prefix } = useClient();
  const [searchParams] = useSearchParams();
  const text = searchText(searchParams.get('search'));
  // Opened first (a link, a reload: React Router's key of the entry the visit started on), the page is quiet until
  // a new search is made from the box; its heading says what was searched for.
  const openedFirst = useLocation().key === 'default';
  const firstText = useRef(text);
  const [searchedHere, setSearchedHere] = useState(!openedFirst);
  useEffect(() => {
    if (text !== firstText.current) setSearchedHere(true);
  }, [text]);
  const search = useSearchContent(prefix, text);
  const { error, isLoading, mutate } = search;
  // A failed search shows its failure alone: not an earlier copy of the same search that SWR still holds, drawn
  // under the alert as if it were this search's answer (found in review).
  const data = error === undefined ? search.data : undefined;
  const informationId = useId();

  // A search activity for every search (spec §4).
  useEffect(() => {
    if (text !== '') recordActivity(prefix, 'search', text);
  }, [prefix, text]);

  const found =
    data === undefined
      ? undefined
      : data.insurance.length + data.case_studies.length + data.insights.length;
  const empty = found === 0;

  // What the search found, told to screen readers once the results are there (a new search from the box keeps
  // focus in the box, and the results appear elsewhere on the page).
  const news =
    text === '' || isLoading || error !== undefined || found === undefined
      ? ''
      : found === 0
        ? `No results found for “${text}”`
        : `${found} ${found === 1 ? 'result' : 'results'} for “${text}”`;

  return (
    <>
      <PageHeading
        documentTitle={text ? `Search results for “${text}”` : 'Search results'}
        lead={
          text ? (
            // Isolated: direction marks in the query (U+202E…) stay inside it, not turn the quotes around.
            <>
              Results for “<bdi>{text}</bdi>”
            </>
          ) : undefined
        }
      >
        Search Results
      </PageHeading>
      {text === '' ? (
        <Notice>Type what you are looking for in the search box at the top of the page.</Notice>
      ) : null}
      <StatusMessage>{searchedHere ? news : ''}</StatusMessage>
      {/* Results later than the loader's wait arrive with the footer left out meanwhile, pushing nothing down. */}
      <LateAnswerPlace waiting={text !== '' && isLoading}>
        {/* No `hasData`: each search is the user's own request, and one that fails is said as a failure (an alert
            with Retry), even where SWR still holds an earlier copy of the same search (`e2e/content.spec.ts`). */}
        <LoadState
          error={error}
          isLoading={isLoading}
          label="Searching…"
          onRetry={() => void mutate()}
        />
        {/* A new search's results are drawn anew, not the last ones' sections moved to their new places (the
          same Case Studies row moved down under a longer Information section, a layout shift of 0.05). */}
        <Fragment key={text}>
          {empty ? <Notice announce={false}>No results found</Notice> : null}
          {data && data.insurance.length > 0 ? (
            <section aria-labelledby={informationId}>
              <SectionTitle id={informationId}>Information</SectionTitle>
              <TopicAccordion topics={data.insurance} headingLevel={3} />
            </section>
          ) : null}
          {data && data.case_studies.length > 0 ? (
            <ContentRow prefix={prefix} title="Case Studies" items={data.case_studies} />
          ) : null}
          {data && data.insights.length > 0 ? (
            <ContentRow prefix={prefix} title="Insights" items={data.insights} />
          ) : null}
        </Fragment>
      </LateAnswerPlace>
    </>
  );
}
