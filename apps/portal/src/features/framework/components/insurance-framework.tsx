import { formatPounds, recommendInsuranceFramework } from '@firm/pricing';
import { useLayoutEffect, useMemo } from 'react';
import { styled } from 'styled-components';
import { useShallow } from 'zustand/react/shallow';

import { PageHeading } from '@/components/ui/page-heading';
import { StatusMessage } from '@/components/ui/status-message';
import { useClient } from '@/hooks/use-client';
import { useRefusedAmounts } from '@/hooks/use-refused-amounts';

import { initialFrameworkInputs, useFrameworkStore } from '../stores/framework-store';
import { isMinimumProfessionalIndemnity } from '../utils/recommendation';

import { FrameworkInputsForm, type FrameworkAmount } from './framework-inputs';
import { FrameworkTable } from './framework-table';
import { RecommendedLimits } from './recommended-limits';

export const INSURANCE_FRAMEWORK_TITLE = 'Insurance Framework';

/**
 * The insurance framework advisor: describe the project and the recommended limits and the 15-row
 * table follow at once, worked out in the browser by @firm/pricing.
 */
export function InsuranceFramework() {
  const { prefix, client } = useClient();
  const owner = `${prefix}/${client.email}`;
  // Before paint: selections left in this tab by another user or client go back to the defaults; until then
  // they are not rendered either (the first render reads the defaults in their place).
  useLayoutEffect(() => useFrameworkStore.getState().claim(owner), [owner]);
  const { inputs, setInput } = useFrameworkStore(
    useShallow((state) => ({
      inputs: state.owner === owner ? state.inputs : initialFrameworkInputs,
      setInput: state.setInput,
    })),
  );
  const recommendation = useMemo(() => recommendInsuranceFramework(inputs), [inputs]);
  // Amount fields showing a refused typed amount: the figures are then for the amount last accepted, and say so.
  const { anyRefused, onAmountRefused } = useRefusedAmounts<FrameworkAmount>();
  const piIsMinimum = useMemo(
    () => isMinimumProfessionalIndemnity(inputs, recommendation),
    [inputs, recommendation],
  );
  const news = anyRefused
    ? 'The limits and the table are out of date: a typed amount was not accepted. Correct the highlighted amount to update them.'
    : `Recommended limits: professional indemnity ${piIsMinimum ? 'at least ' : ''}${formatPounds(
        recommendation.professionalIndemnity,
      )}, public liability ${formatPounds(recommendation.publicLiability)}, employers liability ${formatPounds(
        recommendation.employersLiability,
      )}.`;

  return (
    <Page>
      <PageHeading lead="Describe your project to see the insurances it needs, the limits we recommend and who should buy each policy. The table updates as you change the details.">
        {INSURANCE_FRAMEWORK_TITLE}
      </PageHeading>
      <FrameworkInputsForm
        inputs={inputs}
        onInputChange={setInput}
        onAmountRefused={onAmountRefused}
      />
      {/* What changed, in one message with its labels (the limits below are not a live region, which read out
          bare amounts beside the slider's own value). */}
      <StatusMessage quietAtFirst>{news}</StatusMessage>
      <Results>
        {anyRefused ? (
          <OutOfDate>
            The limits and the table below are for the amounts last accepted: correct the
            highlighted amount to update them.
          </OutOfDate>
        ) : null}
        <RecommendedLimits
          recommendation={recommendation}
          professionalIndemnityIsMinimum={piIsMinimum}
        />
      </Results>
      <FrameworkTable rows={recommendation.rows} />
      <Disclaimer>
        Guidance only: the insurances and limits your project needs depend on its contracts, funders
        and insurers. Our team can review them with you.
      </Disclaimer>
    </Page>
  );
}

const Page = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  max-width: 80rem;
`;

const Results = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.lg};
`;

const OutOfDate = styled.p`
  margin: 0;
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  border-left: 4px solid ${({ theme }) => theme.color.failure};
  background: ${({ theme }) => theme.color.failureSurface};
`;

const Disclaimer = styled.p`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.sm};
  color: ${({ theme }) => theme.color.muted};
`;
