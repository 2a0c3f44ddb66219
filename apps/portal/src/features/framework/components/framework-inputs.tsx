import {
  CONTRACTORS,
  DEVELOPMENT_TYPES,
  formatPounds,
  FRAMEWORK_LIMITS,
  FRAMEWORK_PROPERTY_TYPES,
  SCHEME_LOCATIONS,
  type SliderLimit,
} from '@firm/pricing';
import { MoneySliderField, Select, Toggle } from '@firm/ui';
import { styled } from 'styled-components';

import type { FrameworkInputs } from '../stores/framework-store';

/** The framework's amounts, each typed into a field that may refuse what is typed. */
export type FrameworkAmount = 'contractValue' | 'gdv' | 'reinstatement';

export interface FrameworkInputsProps {
  inputs: FrameworkInputs;
  onInputChange: <K extends keyof FrameworkInputs>(key: K, value: FrameworkInputs[K]) => void;
  /** Called when an amount field refuses what was typed (`true`), and when it is fine again (`false`). */
  onAmountRefused?: (amount: FrameworkAmount, refused: boolean) => void;
}

const range = ({ min, max, step }: SliderLimit) => ({ min, max, step });

/** The nine facts about the project the framework is worked out from. */
export function FrameworkInputsForm({
  inputs,
  onInputChange,
  onAmountRefused,
}: FrameworkInputsProps) {
  return (
    <Form role="group" aria-label="Your project">
      <Select
        label="Property type"
        options={FRAMEWORK_PROPERTY_TYPES}
        value={inputs.propertyType}
        onValueChange={(value) => onInputChange('propertyType', value)}
      />
      <MoneySliderField
        id="framework-contract-value"
        label="Contract value"
        hint="The value of the building contract; it sets the recommended liability limits."
        {...range(FRAMEWORK_LIMITS.contractValue)}
        value={inputs.contractValue}
        onValueChange={(value) => onInputChange('contractValue', value)}
        onProblemChange={(problem) => onAmountRefused?.('contractValue', problem !== null)}
        format={formatPounds}
      />
      <Select
        label="Development type"
        options={DEVELOPMENT_TYPES}
        value={inputs.developmentType}
        onValueChange={(value) => onInputChange('developmentType', value)}
      />
      <MoneySliderField
        id="framework-gdv"
        label="Gross development value (GDV)"
        hint="What the finished scheme is expected to be worth once sold or let."
        {...range(FRAMEWORK_LIMITS.gdv)}
        value={inputs.gdv}
        onValueChange={(value) => onInputChange('gdv', value)}
        onProblemChange={(problem) => onAmountRefused?.('gdv', problem !== null)}
        format={formatPounds}
      />
      <Select
        label="Contractor"
        options={CONTRACTORS}
        value={inputs.contractor}
        onValueChange={(value) => onInputChange('contractor', value)}
      />
      <Select
        label="Scheme location"
        options={SCHEME_LOCATIONS}
        value={inputs.schemeLocation}
        onValueChange={(value) => onInputChange('schemeLocation', value)}
      />
      <MoneySliderField
        id="framework-reinstatement"
        label="Reinstatement value of existing structures"
        hint="The cost of rebuilding any buildings already on site; £0 when there are none."
        {...range(FRAMEWORK_LIMITS.reinstatement)}
        value={inputs.reinstatement}
        onValueChange={(value) => onInputChange('reinstatement', value)}
        onProblemChange={(problem) => onAmountRefused?.('reinstatement', problem !== null)}
        format={formatPounds}
      />
      <Switches>
        <Toggle
          label="The scheme has a basement"
          checked={inputs.hasBasement}
          onCheckedChange={(checked) => onInputChange('hasBasement', checked)}
        />
        <Toggle
          label="The scheme has a flat roof"
          checked={inputs.hasFlatRoof}
          onCheckedChange={(checked) => onInputChange('hasFlatRoof', checked)}
        />
      </Switches>
    </Form>
  );
}

const Form = styled.div`
  display: grid;
  gap: ${({ theme }) => theme.space.xl};
  padding: ${({ theme }) => theme.space.xl};
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.color.surface};

  ${({ theme }) => theme.media.md} {
    grid-template-columns: repeat(2, minmax(0, 1fr));
    column-gap: ${({ theme }) => theme.space.xxl};
  }
`;

const Switches = styled.div`
  display: flex;
  flex-wrap: wrap;
  gap: ${({ theme }) => theme.space.lg};
  align-items: center;

  ${({ theme }) => theme.media.md} {
    grid-column: 1 / -1;
  }
`;
