import { BUILD_TYPES, BUILDING_WARRANTY_LIMITS, formatPounds, STAGES } from '@firm/pricing';
import { MoneySliderField, Select, Slider } from '@firm/ui';

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
import { rangeOf } from '../utils/options';
import { TERMS } from '../utils/terms';

import { BreakdownTable } from './breakdown-table';
import { CalculatorLayout } from './calculator-layout';
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
          <Select
            label="Stage"
            options={STAGES}
            value={inputs.stage}
            onValueChange={(value) => setInput('stage', value)}
          />
          <Slider
            id={`${ID}-units`}
            label="Number of units"
            {...rangeOf(BUILDING_WARRANTY_LIMITS.units)}
            value={inputs.units}
            onValueChange={(value) => setInput('units', value)}
            formatValue={(value) => formatCount(value, 'unit')}
          />
          <MoneySliderField
            id={`${ID}-sum-insured`}
            label="Sum insured (build cost)"
            hint={TERMS.sumInsured}
            {...rangeOf(BUILDING_WARRANTY_LIMITS.sumInsured)}
            value={inputs.sumInsured}
            onValueChange={(value) => setInput('sumInsured', value)}
            onProblemChange={(problem) =>
              calculator.onAmountRefused('sumInsured', problem !== null)
            }
            format={formatPounds}
          />
          <MoneySliderField
            id={`${ID}-gdv`}
            label="Gross development value (GDV)"
            hint={TERMS.gdv}
            {...rangeOf(BUILDING_WARRANTY_LIMITS.gdv)}
            value={inputs.gdv}
            onValueChange={(value) => setInput('gdv', value)}
            onProblemChange={(problem) => calculator.onAmountRefused('gdv', problem !== null)}
            format={formatPounds}
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
