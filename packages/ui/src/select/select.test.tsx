import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { defaultTheme } from '../theme/theme';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { Select } from './select';

const STAGES = ['Not Started', 'Part Complete', 'Completed'] as const;
type Stage = (typeof STAGES)[number];

function StagePicker({ onValueChange }: { onValueChange?: (stage: Stage) => void }) {
  const [stage, setStage] = useState<Stage>('Not Started');
  return (
    <Select
      label="Stage of works"
      options={STAGES}
      value={stage}
      onValueChange={(next) => {
        setStage(next);
        onValueChange?.(next);
      }}
    />
  );
}

describe('Select', () => {
  describe('given string options', () => {
    it('should be a native select named by its label, listing each option', () => {
      renderWithTheme(<StagePicker />);
      const select = screen.getByRole('combobox', { name: 'Stage of works' });
      expect(select.tagName).toBe('SELECT');
      expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual([
        ...STAGES,
      ]);
      expect(select).toHaveValue('Not Started');
    });

    describe('when the user picks an option', () => {
      it('should report its value', async () => {
        const onValueChange = vi.fn();
        const { user } = renderWithTheme(<StagePicker onValueChange={onValueChange} />);
        await user.selectOptions(screen.getByRole('combobox'), 'Part Complete');
        expect(onValueChange).toHaveBeenCalledWith('Part Complete');
        expect(screen.getByRole('combobox')).toHaveValue('Part Complete');
      });
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<StagePicker />);
      await expectNoAxeViolations(container);
    });
  });

  describe('given value and label options', () => {
    it('should show the labels and report the values', async () => {
      const onValueChange = vi.fn();
      const { user } = renderWithTheme(
        <Select
          label="Term"
          options={[
            { value: '12', label: '12 months' },
            { value: '24', label: '24 months' },
          ]}
          value="12"
          onValueChange={onValueChange}
        />,
      );
      await user.selectOptions(screen.getByRole('combobox', { name: 'Term' }), '24 months');
      expect(onValueChange).toHaveBeenCalledWith('24');
    });
  });

  describe('given an error message', () => {
    it('should be invalid, in the failure colour and described by the message', () => {
      renderWithTheme(
        <Select
          label="Contractor"
          options={['A', 'B']}
          value="A"
          onValueChange={() => undefined}
          errorMessage="Choose a contractor"
          hint="Who builds the scheme"
        />,
      );
      const select = screen.getByRole('combobox', { name: 'Contractor' });
      expect(select).toHaveAttribute('aria-invalid', 'true');
      expect(select).toHaveStyle({ borderColor: defaultTheme.color.failure });
      expect(select).toHaveAccessibleDescription('Who builds the scheme Choose a contractor');
    });
  });

  describe('types', () => {
    it('should type the value and the callback by the options', () => {
      const onValueChange = vi.fn<(stage: Stage) => void>();
      const valid = (
        <Select label="Stage" options={STAGES} value="Completed" onValueChange={onValueChange} />
      );
      const invalid = (
        // @ts-expect-error 'Finished' is not one of the options
        <Select label="Stage" options={STAGES} value="Finished" onValueChange={onValueChange} />
      );
      expect(valid.props.value).toBe('Completed');
      expect(invalid.props.value).toBe('Finished');
    });
  });
});
