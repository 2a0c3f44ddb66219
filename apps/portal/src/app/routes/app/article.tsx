import { Button, containMarksCss } from '@firm/ui';
import { useEffect, useId, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import type { LoaderFunctionArgs } from 'react-router-dom';
import styled from 'styled-components';

import { SafeHtml } from '@/components/safe-html';
import { LateAnswerPlace } from '@/components/ui/late-answer-place';
import { LoadState } from '@/components/ui/load-state';
import { PageHeading } from '@/components/ui/page-heading';
import { paths } from '@/config/paths';
import { getArticle, useArticle } from '@/features/content/api/get-article';
import { useClient } from '@/hooks/use-client';
import { recordViewWhenIdle } from '@/lib/activity';
import { fetchPageAnswers } from '@/lib/page-answers';
import { ApiError } from '@/lib/api-client';
import { CONTENT_TYPES } from '@/types/api';
import type { ContentType } from '@/types/api';

function isContentType(value: string | null): value is ContentType {
  return CONTENT_TYPES.some((type) => type === value);
}

/** The article an address names, or null when it names none (no id, an unknown type). */
function articleOf(searchParams: URLSearchParams): { id: string; type: ContentType } | null {
  const id = searchParams.get('id');
  const type = searchParams.get('type');
  return id && isContentType(type) ? { id, type } : null;
}

/**
 * The article, fetched before the page is shown (the previous page stays, under the navigation bar, meanwhile):
 * drawn under its loading note, it pushed the footer's banner away on a phone (a layout shift of 0.85 with the
 * answer 1.5 s slow, found by a hostile run). Run again for each new `?id=` (a related article).
 */
export async function loader({ params, request }: LoaderFunctionArgs): Promise<null> {
  const prefix = params.client ?? '';
  const item = articleOf(new URL(request.url).searchParams);
  if (item) {
    await fetchPageAnswers(
      [[paths.api.article(prefix, item), (signal) => getArticle(prefix, item, signal)]],
      request.signal,
    );
  }
  return null;
}

/** /{client}/article?id=…&type=…: image, title, HTML, Go Back, and related items on wide screens. */
export function Component() {
  const { prefix } = useClient();
  const [searchParams] = useSearchParams();
  const navigate = useNavigate();
  const location = useLocation();
  const item = articleOf(searchParams);
  const { data, error, isLoading, mutate } = useArticle(prefix, item);
  const relatedId = useId();

  // Go Back is history back; opened directly (no earlier page in the hub), it goes to the dashboard.
  const goBack = () => {
    if (location.key === 'default') navigate(paths.app.dashboard(prefix));
    else navigate(-1);
  };

  // 400: an id or type the API cannot even look up (over 100 characters…): no such article either.
  const notFound =
    !item || (error instanceof ApiError && (error.status === 404 || error.status === 400));

  // The view is recorded once the article has loaded, as `case_study:harbour-quay`: an address naming no article
  // recorded its words as a view in the log of whoever opened it, so a link could write text of its author's
  // choosing there under that person's name (found by the twenty-second session's portal probe).
  const viewed = data && !notFound ? `${data.type}:${data.id}` : null;
  useEffect(() => {
    if (viewed !== null) recordViewWhenIdle(prefix, viewed);
  }, [prefix, viewed]);

  return (
    // An article later than the loader's wait arrives with the footer left out meanwhile, pushing nothing down.
    <LateAnswerPlace waiting={item !== null && isLoading}>
      <Layout>
        <Article>
          <BackButton type="button" variant="secondary" onClick={goBack}>
            Go Back
          </BackButton>
          {notFound ? (
            <PageHeading lead="This article does not exist or is no longer available.">
              Article not found
            </PageHeading>
          ) : (
            <>
              {/* Found by the eighteenth session's portal probe: while the article loads, or when it cannot be
                loaded (a 500, an ended session's 401), the page had no h1 (axe page-has-heading-one) and the tab
                kept the hub's title; every page has an h1 and a title ending with the client's name. */}
              {data ? null : <PageHeading>Article</PageHeading>}
              <LoadState
                error={error}
                isLoading={isLoading}
                hasData={data !== undefined}
                label="Loading the article…"
                onRetry={() => void mutate()}
              />
            </>
          )}
          {data && !notFound ? (
            <>
              {data.image_url ? <HeroImage key={data.image_url} src={data.image_url} /> : null}
              <PageHeading documentTitle={data.title}>{data.title}</PageHeading>
              <SafeHtml html={data.description} headingsFrom={2} />
            </>
          ) : null}
        </Article>
        {data && !notFound && data.related.length > 0 ? (
          <Related aria-labelledby={relatedId}>
            <h2 id={relatedId}>You may also like…</h2>
            <ul>
              {data.related.map((related) => (
                <li key={`${related.type}:${related.id}`}>
                  <Link to={paths.app.article(prefix, related)}>{related.title}</Link>
                  {related.description_text ? <p>{related.description_text}</p> : null}
                </li>
              ))}
            </ul>
          </Related>
        ) : null}
      </Layout>
    </LateAnswerPlace>
  );
}

const Layout = styled.div`
  display: grid;
  /* One column no wider than the page, whatever the title (a word of 2,000 letters breaks). */
  grid-template-columns: minmax(0, 1fr);
  gap: ${({ theme }) => theme.space.xl};

  ${({ theme }) => theme.media.lg} {
    grid-template-columns: minmax(0, 1fr) 18rem;
    align-items: start;
  }
`;

const Article = styled.article`
  max-width: 48rem;
`;

const BackButton = styled(Button)`
  margin-bottom: ${({ theme }) => theme.space.md};
`;

/**
 * The article's image, gone when it cannot be loaded: its box would stand empty above the title, with the
 * browser's broken-image sign (found by the twenty-fifth session's probe, once the box had a size of its own).
 */
function HeroImage({ src }: { src: string }) {
  const [failed, setFailed] = useState(false);
  return failed ? null : <Hero src={src} alt="" onError={() => setFailed(true)} />;
}

/**
 * Its box is 16:9 (at most 24rem high) before the image arrives, as the cards' images are, and the image is cut to
 * it. Found by the twenty-fifth session's portal probe: with no size until it loaded, the title and the article
 * dropped 166 px when it came (a layout shift of 0.11-0.12).
 */
const Hero = styled.img`
  display: block;
  width: 100%;
  aspect-ratio: 16 / 9;
  height: auto;
  max-height: 24rem;
  object-fit: cover;
  margin-bottom: ${({ theme }) => theme.space.lg};
  border-radius: ${({ theme }) => theme.radius.md};
`;

/** 'You may also like…' only on wide screens (spec §2). */
const Related = styled.section`
  display: none;
  /* Its list is a grid: a long word in a title must break inside the column, not widen it. */
  overflow-wrap: anywhere;

  ${({ theme }) => theme.media.lg} {
    display: block;
    position: sticky;
    top: ${({ theme }) => theme.space.md};
    padding: ${({ theme }) => theme.space.md};
    background: ${({ theme }) => theme.color.surface};
    border: 1px solid ${({ theme }) => theme.color.divider};
    border-radius: ${({ theme }) => theme.radius.md};
  }

  h2 {
    margin-top: 0;
    font-size: ${({ theme }) => theme.fontSize.lg};
  }

  ul {
    margin: 0;
    padding: 0;
    list-style: none;
    display: grid;
    gap: ${({ theme }) => theme.space.md};
  }

  p {
    margin: ${({ theme }) => theme.space.xxs} 0 0;
    font-size: ${({ theme }) => theme.fontSize.sm};
    color: ${({ theme }) => theme.color.muted};
  }

  /* A block for its title's stacked combining marks to stay on (off the summary and the header), yet no wider
     than the title, as the link it is. */
  li > a {
    display: inline-block;
    max-width: 100%;
    ${containMarksCss}
  }
`;
