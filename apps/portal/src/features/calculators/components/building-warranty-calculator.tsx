import { BUILD_TYPES, BUILDING_WARRANTY_LIMITS, formatPounds } from '@firm/pricing';
import { Select } from '@firm/ui';

import {
  submitBuildingWarranty,
  toBuildingWarrantySubmission,
} from '../api/submit-building-warranty';
import { useCalculator } from '../hooks/use-calculator';
import {
  quoteBuildingWarrantyInputs as quote,
  useBuildingWarrantyStore,
} from '../stores/building-warranty-store';
import { formatCount, formatPercent } from '../utils/format';
import { TERMS } from '../utils/terms';

import { BreakdownTable } from './breakdown-table';
import { CalculatorLayout } from './calculator-layout';
import { DevelopmentFields } from './development-fields';
import { Term } from './term';

export const BUILDING_WARRANTY_TITLE = 'Building Warranty Cost Calculator';
const ID = 'building-warranty';

/** Building warranty: an indicative premium from the build type, stage, units and sum insured. */
export function BuildingWarrantyCalculator() {
  const calculator = useCalculator({
    store: useBuildingWarrantyStore,
    idPrefix: ID,
    quote,
    toSubmission: toBuildingWarrantySubmission,
    submit: submitBuildingWarranty,
    activityItem: BUILDING_WARRANTY_TITLE,
  });
  const { inputs, setInput, estimate } = calculator;

  return (
    <CalculatorLayout
      title={BUILDING_WARRANTY_TITLE}
      intro="An indicative premium for a structural (latent defects) warranty on new homes or a conversion. Our team receives your estimate and follows it up with you."
      idPrefix={ID}
      calculator={calculator}
      project={
        <>
          <Select
            label="Build type"
            options={BUILD_TYPES}
            value={inputs.buildType}
            onValueChange={(value) => setInput('buildType', value)}
          />
          <DevelopmentFields
            idPrefix={ID}
            limits={BUILDING_WARRANTY_LIMITS}
            inputs={inputs}
            setInput={setInput}
            onAmountRefused={calculator.onAmountRefused}
          />
        </>
      }
      headline={
        estimate === null
          ? null
          : { label: 'Estimated premium', value: formatPounds(estimate.quote.estimate) }
      }
      figures={
        estimate === null ? null : (
          <>
            <BreakdownTable
              caption="How it is worked out"
              rows={[
                {
                  id: 'build-cost',
                  label: (
                    <>
                      Build cost rate for a <Term explanation={TERMS.sumInsured}>sum insured</Term>{' '}
                      of {formatPounds(estimate.inputs.sumInsured)}
                    </>
                  ),
                  value: formatPercent(estimate.quote.rates.buildCost),
                },
                {
                  id: 'build-type',
                  label: `Build type: ${estimate.inputs.buildType}`,
                  value: formatPercent(estimate.quote.rates.buildType),
                },
                {
                  id: 'stage',
                  label: `Stage: ${estimate.inputs.stage}`,
                  value: formatPercent(estimate.quote.rates.stage),
                },
                {
                  id: 'units',
                  label: `Units: ${formatCount(estimate.inputs.units, 'unit')}`,
                  value: formatPercent(estimate.quote.rates.units),
                },
                {
                  id: 'total-percentage',
                  label: <Term explanation={TERMS.totalPercentage}>Total percentage</Term>,
                  value: formatPercent(estimate.quote.totalPercentage),
                  total: true,
                },
                {
                  id: 'estimate',
                  label: `Estimated premium (${formatPercent(estimate.quote.totalPercentage)} of ${formatPounds(estimate.inputs.sumInsured)})`,
                  value: formatPounds(estimate.quote.estimate),
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
