import { Card } from '@firm/ui';
import { useId } from 'react';
import styled from 'styled-components';

import { RouterLink } from '@/components/ui/router-link';
import { paths } from '@/config/paths';
import type { ContentItem } from '@/types/api';

interface ContentRowProps {
  prefix: string;
  title: string;
  items: readonly ContentItem[];
  /** Level of the section heading; the cards' titles are one level below. */
  headingLevel?: 2 | 3;
}

/** A titled row of article cards (case studies or insights); each card opens its article. */
export function ContentRow({ prefix, title, items, headingLevel = 2 }: ContentRowProps) {
  const headingId = useId();
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section aria-labelledby={headingId}>
      <SectionTitle as={Heading} id={headingId}>
        {title}
      </SectionTitle>
      <CardGrid>
        {items.map((item) => (
          <li key={`${item.type}:${item.id}`}>
            <Card
              title={item.title}
              text={item.description_text}
              imageUrl={item.image_url || undefined}
              href={paths.app.article(prefix, item)}
              linkComponent={RouterLink}
              headingLevel={headingLevel === 2 ? 3 : 4}
            />
          </li>
        ))}
      </CardGrid>
    </section>
  );
}

export const SectionTitle = styled.h2`
  margin: ${({ theme }) => `${theme.space.xl} 0 ${theme.space.md}`};
  font-size: ${({ theme }) => theme.fontSize.xl};
`;

export const CardGrid = styled.ul`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(13rem, 1fr));
  gap: ${({ theme }) => theme.space.md};
  margin: 0;
  padding: 0;
  list-style: none;

  & > li {
    display: flex;
  }

  & > li > * {
    flex: 1;
  }
`;
