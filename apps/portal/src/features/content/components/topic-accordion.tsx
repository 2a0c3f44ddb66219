import { Accordion, AccordionItem } from '@firm/ui';
import styled from 'styled-components';

import { SafeHtml } from '@/components/safe-html';
import type { Topic } from '@/types/api';

interface TopicAccordionProps {
  topics: readonly Topic[];
  /** Level of the item headings (2 on the information hub, 3 inside the search results' section). */
  headingLevel: 2 | 3 | 4;
}

/** Insurance topics: one open at a time, collapsible; HTML body and an optional Pro Tip (spec §2). */
export function TopicAccordion({ topics, headingLevel }: TopicAccordionProps) {
  const bodyHeadings = (headingLevel + 1) as 3 | 4 | 5;
  return (
    <Accordion headingLevel={headingLevel}>
      {topics.map((topic) => (
        <AccordionItem
          key={topic.id}
          value={topic.id}
          title={<TopicTitle>{topic.title}</TopicTitle>}
        >
          <SafeHtml html={topic.description} headingsFrom={bodyHeadings} />
          {topic.pro_tip ? (
            <ProTip>
              <ProTipTitle>Pro Tip</ProTipTitle>
              <SafeHtml html={topic.pro_tip} headingsFrom={bodyHeadings} />
            </ProTip>
          ) : null}
        </AccordionItem>
      ))}
    </Accordion>
  );
}

/** The trigger lays its title out as a flex item: a long word must break there, not widen the page. */
const TopicTitle = styled.span`
  overflow-wrap: anywhere;
`;

const ProTip = styled.div`
  margin-top: ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => theme.space.md};
  border-left: 4px solid ${({ theme }) => theme.color.accent};
  background: ${({ theme }) => theme.color.background};
  border-radius: ${({ theme }) => theme.radius.sm};
`;

const ProTipTitle = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.xs};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  color: ${({ theme }) => theme.color.accent};
`;
