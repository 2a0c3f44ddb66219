import { BTR_LIMITS, BTR_TERMS, formatPounds, IPT_RATE } from '@firm/pricing';
import { MoneySliderField, Select, Slider, Toggle } from '@firm/ui';
import { styled } from 'styled-components';

import {
  submitBtrWarranty,
  toBtrWarrantySubmission,
  type BtrWarrantyInputs,
} from '../api/submit-btr-warranty';
import { useCalculator } from '../hooks/use-calculator';
import { quoteBtrWarrantyInputs as quote, useBtrWarrantyStore } from '../stores/btr-warranty-store';
import {
  formatCount,
  formatDecimal,
  formatFractionAsPercent,
  formatPercent,
} from '../utils/format';
import { optionOf, rangeOf } from '../utils/options';
import { TERMS } from '../utils/terms';

import { BreakdownTable } from './breakdown-table';
import { CalculatorLayout } from './calculator-layout';
import { DevelopmentFields } from './development-fields';
import { Term } from './term';

export const BTR_WARRANTY_TITLE = 'BTR Warranty + Loss of Rent Calculator';
const ID = 'btr-warranty';

const TERM_OPTIONS = BTR_TERMS.map((months) => ({
  value: String(months),
  label: formatCount(months, 'month'),
}));

/** Build-to-rent warranty with optional loss of rent: warranty premium, loss of rent, IPT and total. */
export function BtrWarrantyCalculator() {
  const calculator = useCalculator({
    store: useBtrWarrantyStore,
    idPrefix: ID,
    quote,
    toSubmission: toBtrWarrantySubmission,
    submit: submitBtrWarranty,
    activityItem: BTR_WARRANTY_TITLE,
  });
  const { inputs, setInput, estimate } = calculator;

  return (
    <CalculatorLayout
      title={BTR_WARRANTY_TITLE}
      intro="An indicative premium for a structural warranty on a build-to-rent scheme, with optional cover for the rent lost while a defect is put right. Our team receives your estimate and follows it up with you."
      idPrefix={ID}
      calculator={calculator}
      telephone={{
        name: 'contact_number',
        label: 'Contact number',
        errorMessage: 'Enter your contact number',
      }}
      project={
        <>
          <DevelopmentFields
            idPrefix={ID}
            limits={BTR_LIMITS}
            inputs={inputs}
            setInput={setInput}
            onAmountRefused={calculator.onAmountRefused}
          />
          <Toggle
            label="Include loss of rent"
            checked={inputs.includeLossOfRent}
            onCheckedChange={(checked) => setInput('includeLossOfRent', checked)}
          />
          {inputs.includeLossOfRent ? (
            <LossOfRent>
              <MoneySliderField
                id={`${ID}-income`}
                label="Anticipated rental income (a year)"
                {...rangeOf(BTR_LIMITS.anticipatedRentalIncome)}
                value={inputs.anticipatedRentalIncome}
                onValueChange={(value) => setInput('anticipatedRentalIncome', value)}
                onProblemChange={(problem) =>
                  calculator.onAmountRefused('anticipatedRentalIncome', problem !== null)
                }
                format={formatPounds}
              />
              <Select
                label="Term"
                options={TERM_OPTIONS}
                value={String(inputs.termMonths)}
                onValueChange={(value) => {
                  const term = optionOf(BTR_TERMS, value);
                  if (term) setInput('termMonths', term);
                }}
              />
              <Slider
                id={`${ID}-programme`}
                label="Programme of works (months)"
                hint={TERMS.programmeOfWorks}
                {...rangeOf(BTR_LIMITS.programmeMonths)}
                value={inputs.programmeMonths}
                onValueChange={(value) => setInput('programmeMonths', value)}
                formatValue={(value) => formatCount(value, 'month')}
              />
            </LossOfRent>
          ) : null}
        </>
      }
      headline={
        estimate === null
          ? null
          : { label: 'Total premium (including IPT)', value: formatPounds(estimate.quote.total) }
      }
      figures={
        estimate === null ? null : (
          <>
            <BreakdownTable
              caption="How it is worked out"
              rows={[
                {
                  id: 'base',
                  label: 'Base rate',
                  value: formatPercent(estimate.quote.rates.base),
                },
                {
                  id: 'stage',
                  label: `Stage: ${estimate.inputs.stage}`,
                  value: formatPercent(estimate.quote.rates.stage),
                },
                {
                  id: 'total-percentage',
                  label: <Term explanation={TERMS.totalPercentage}>Total percentage</Term>,
                  value: formatPercent(estimate.quote.totalPercentage),
                },
                {
                  id: 'warranty',
                  label: (
                    <>
                      Warranty premium ({formatPercent(estimate.quote.totalPercentage)} of a{' '}
                      <Term explanation={TERMS.sumInsured}>sum insured</Term> of{' '}
                      {formatPounds(estimate.inputs.sumInsured)})
                    </>
                  ),
                  value: formatPounds(estimate.quote.warrantyPremium),
                },
                {
                  id: 'loss-of-rent',
                  label: (
                    <>
                      <Term explanation={TERMS.lossOfRent}>Loss of rent</Term>
                      {lossOfRentDetail(estimate.inputs, estimate.quote.rates.lossOfRentTerm)}
                    </>
                  ),
                  value: estimate.inputs.includeLossOfRent
                    ? formatPounds(estimate.quote.lossOfRentPremium)
                    : 'Not included',
                },
                {
                  id: 'sub-total',
                  label: 'Sub total',
                  value: formatPounds(estimate.quote.subTotal),
                  total: true,
                },
                {
                  id: 'ipt',
                  label: (
                    <>
                      <Term explanation={TERMS.ipt}>IPT</Term> ({IPT_RATE}%)
                    </>
                  ),
                  value: formatPounds(estimate.quote.ipt),
                },
                {
                  id: 'total',
                  label: 'Total',
                  value: formatPounds(estimate.quote.total),
                  total: true,
                },
              ]}
            />
          </>
        )
      }
    />
  );
}

/** ' (24 months at 0.72% of £2,000,000 a year, 6-month programme of works)', or '' without cover. */
function lossOfRentDetail(inputs: BtrWarrantyInputs, termRate: number | null): string {
  if (!inputs.includeLossOfRent || termRate === null) return '';
  const programme =
    inputs.programmeMonths > 0
      ? `, ${formatDecimal(inputs.programmeMonths, 0)}-month programme of works`
      : '';
  return ` (${formatCount(inputs.termMonths, 'month')} at ${formatFractionAsPercent(termRate)} of ${formatPounds(inputs.anticipatedRentalIncome)} a year${programme})`;
}

const LossOfRent = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  padding-left: ${({ theme }) => theme.space.lg};
  border-left: 3px solid ${({ theme }) => theme.color.divider};
`;
