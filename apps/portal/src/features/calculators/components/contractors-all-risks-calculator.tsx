import { CAR_ASSUMPTIONS, CAR_LIMITS, CAR_PROPERTY_TYPES, formatPounds } from '@firm/pricing';
import { MoneySliderField, Select } from '@firm/ui';
import { styled } from 'styled-components';

import {
  submitContractorsAllRisks,
  toContractorsAllRisksSubmission,
} from '../api/submit-contractors-all-risks';
import { useCalculator } from '../hooks/use-calculator';
import {
  quoteContractorsAllRisksInputs as quote,
  useContractorsAllRisksStore,
} from '../stores/contractors-all-risks-store';
import { formatPercent } from '../utils/format';
import { rangeOf } from '../utils/options';
import { TERMS } from '../utils/terms';

import { CalculatorLayout } from './calculator-layout';
import { Term } from './term';

export const CONTRACTORS_ALL_RISKS_TITLE = 'Contractors All Risks Calculator';
const ID = 'contractors-all-risks';

const LEVELS = [
  { key: 'low', label: 'Low' },
  { key: 'medium', label: 'Medium' },
  { key: 'high', label: 'High' },
] as const;

/** Contractors all risks: low, medium and high indicative premiums for the contract works value. */
export function ContractorsAllRisksCalculator() {
  const calculator = useCalculator({
    store: useContractorsAllRisksStore,
    idPrefix: ID,
    quote,
    toSubmission: toContractorsAllRisksSubmission,
    submit: submitContractorsAllRisks,
    activityItem: CONTRACTORS_ALL_RISKS_TITLE,
  });
  const { inputs, setInput, estimate } = calculator;

  return (
    <CalculatorLayout
      title={CONTRACTORS_ALL_RISKS_TITLE}
      intro="An indicative range of premiums for insuring the works in progress and materials on site until completion. Our team receives your estimate and follows it up with you."
      idPrefix={ID}
      calculator={calculator}
      project={
        <>
          <Select
            label="Property type"
            options={CAR_PROPERTY_TYPES}
            value={inputs.propertyType}
            onValueChange={(value) => setInput('propertyType', value)}
          />
          <MoneySliderField
            id={`${ID}-contract-works`}
            label="Contract works value"
            hint={TERMS.contractWorks}
            {...rangeOf(CAR_LIMITS.contractWorksValue)}
            value={inputs.contractWorksValue}
            onValueChange={(value) => setInput('contractWorksValue', value)}
            onProblemChange={(problem) =>
              calculator.onAmountRefused('contractWorksValue', problem !== null)
            }
            format={formatPounds}
          />
        </>
      }
      headline={
        estimate === null
          ? null
          : {
              label: 'Estimated premium',
              value: `${formatPounds(estimate.quote.low)} to ${formatPounds(estimate.quote.high)}`,
            }
      }
      figures={
        estimate === null ? null : (
          <>
            <Levels>
              <caption>
                {estimate.inputs.propertyType},{' '}
                <Term explanation={TERMS.contractWorks}>contract works</Term> of{' '}
                {formatPounds(estimate.inputs.contractWorksValue)}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Estimate</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Premium</th>
                </tr>
              </thead>
              <tbody>
                {LEVELS.map(({ key, label }) => (
                  <tr key={key}>
                    <th scope="row">{label}</th>
                    <td>{formatPercent(estimate.quote.rates[key])}</td>
                    <td>{formatPounds(estimate.quote[key])}</td>
                  </tr>
                ))}
              </tbody>
            </Levels>
            <Assumptions>
              <p>These figures assume:</p>
              <ul>
                {CAR_ASSUMPTIONS.map((assumption) => (
                  <li key={assumption}>{assumption}</li>
                ))}
              </ul>
            </Assumptions>
          </>
        )
      }
    />
  );
}

const Levels = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: ${({ theme }) => theme.fontSize.sm};

  caption {
    margin-bottom: ${({ theme }) => theme.space.sm};
    text-align: left;
    font-weight: ${({ theme }) => theme.fontWeight.bold};
  }

  th,
  td {
    padding: ${({ theme }) => `${theme.space.sm} 0`};
    border-bottom: 1px solid ${({ theme }) => theme.color.divider};
    text-align: right;
    font-variant-numeric: tabular-nums;
  }

  th:first-child {
    text-align: left;
  }
`;

const Assumptions = styled.div`
  font-size: ${({ theme }) => theme.fontSize.sm};

  p,
  ul {
    margin: 0;
  }

  ul {
    padding-left: ${({ theme }) => theme.space.xl};
  }
`;
