import { formatPounds, STAGES, type SliderLimit, type Stage } from '@firm/pricing';
import { MoneySliderField, Select, Slider } from '@firm/ui';

import { formatCount } from '../utils/format';
import { rangeOf } from '../utils/options';
import { TERMS } from '../utils/terms';

/** The development as both warranty calculators describe it: its stage, units, build cost and GDV. */
export interface DevelopmentInputs {
  stage: Stage;
  units: number;
  sumInsured: number;
  gdv: number;
}

interface DevelopmentFieldsProps {
  /** The calculator's id prefix: the fields' ids are `{idPrefix}-units`, `-sum-insured` and `-gdv`. */
  idPrefix: string;
  /** The calculator's own slider ranges (from `@firm/pricing`). */
  limits: Readonly<Record<'units' | 'sumInsured' | 'gdv', SliderLimit>>;
  inputs: DevelopmentInputs;
  /** The calculator's own `setInput`, for these four fields. */
  setInput: {
    (key: 'stage', value: Stage): void;
    (key: 'units' | 'sumInsured' | 'gdv', value: number): void;
  };
  /** For each amount field's `onProblemChange`: an amount the field refuses holds Calculate back. */
  onAmountRefused: (field: 'sumInsured' | 'gdv', refused: boolean) => void;
}

/**
 * Stage, number of units, sum insured and GDV, in this order: the fields the building warranty and the BTR
 * warranty calculators share, each within its calculator's own limits.
 */
export function DevelopmentFields({
  idPrefix,
  limits,
  inputs,
  setInput,
  onAmountRefused,
}: DevelopmentFieldsProps) {
  return (
    <>
      <Select
        label="Stage"
        options={STAGES}
        value={inputs.stage}
        onValueChange={(value) => setInput('stage', value)}
      />
      <Slider
        id={`${idPrefix}-units`}
        label="Number of units"
        {...rangeOf(limits.units)}
        value={inputs.units}
        onValueChange={(value) => setInput('units', value)}
        formatValue={(value) => formatCount(value, 'unit')}
      />
      <MoneySliderField
        id={`${idPrefix}-sum-insured`}
        label="Sum insured (build cost)"
        hint={TERMS.sumInsured}
        {...rangeOf(limits.sumInsured)}
        value={inputs.sumInsured}
        onValueChange={(value) => setInput('sumInsured', value)}
        onProblemChange={(problem) => onAmountRefused('sumInsured', problem !== null)}
        format={formatPounds}
      />
      <MoneySliderField
        id={`${idPrefix}-gdv`}
        label="Gross development value (GDV)"
        hint={TERMS.gdv}
        {...rangeOf(limits.gdv)}
        value={inputs.gdv}
        onValueChange={(value) => setInput('gdv', value)}
        onProblemChange={(problem) => onAmountRefused('gdv', problem !== null)}
        format={formatPounds}
      />
    </>
  );
}
