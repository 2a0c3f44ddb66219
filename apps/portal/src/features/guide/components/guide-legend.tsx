import { GUIDE_TAGS } from '@firm/pricing';
import { styled } from 'styled-components';

import { GuideTag } from '@/components/ui/guide-tag';

/** What the tags mean: who buys the insurance. */
const MEANINGS = {
  'Property Developer': 'The developer buys the policy.',
  Contractor: 'The contractor buys the policy.',
  'Either or Joint Policy': 'Either party buys it, or one policy covers both in joint names.',
  'Both needed': 'Developer and contractor each need their own policy.',
} as const satisfies Record<(typeof GUIDE_TAGS)[number], string>;

/** The legend of the guide's four tags, each with its colour, shape and meaning. */
export function GuideLegend() {
  return (
    <section aria-labelledby="guide-legend-heading">
      <Heading id="guide-legend-heading">Who buys the insurance</Heading>
      <Legend>
        {GUIDE_TAGS.map((tag) => (
          <li key={tag}>
            <GuideTag tag={tag} />
            <span>{MEANINGS[tag]}</span>
          </li>
        ))}
      </Legend>
    </section>
  );
}

const Heading = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space.md};
  font-size: ${({ theme }) => theme.fontSize.lg};
`;

const Legend = styled.ul`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin: 0;
  padding: 0;
  list-style: none;

  ${({ theme }) => theme.media.md} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
  }

  li {
    display: grid;
    grid-template-columns: minmax(0, max-content) minmax(0, 1fr);
    align-items: center;
    gap: ${({ theme }) => theme.space.sm};
    font-size: ${({ theme }) => theme.fontSize.sm};
  }
`;
