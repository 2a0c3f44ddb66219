import { styled } from 'styled-components';

import { PageHeading } from '@/components/ui/page-heading';

import { GuideLegend } from './guide-legend';
import { GuideMatrix } from './guide-matrix';

export const INSURANCE_GUIDE_TITLE = 'Development Insurance Guide';

/** Which insurances a development needs at each stage, and who buys them. */
export function InsuranceGuide() {
  return (
    <Page>
      <PageHeading lead="Which insurances a development needs from site acquisition to completion, and who usually buys each one.">
        {INSURANCE_GUIDE_TITLE}
      </PageHeading>
      <GuideLegend />
      <GuideMatrix />
    </Page>
  );
}

const Page = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  max-width: 80rem;
`;
