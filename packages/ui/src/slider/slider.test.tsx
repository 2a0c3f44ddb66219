import { fireEvent, screen } from '@testing-library/react';
import fc from 'fast-check';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { decimalCount, percentOf, Slider, snapToStep, type SliderProps } from './slider';

const formatUnits = (n: number) => `${n} ${n === 1 ? 'unit' : 'units'}`;

function Units(props: Partial<SliderProps>) {
  const [units, setUnits] = useState(1);
  return (
    <Slider
      label="Number of units"
      min={1}
      max={250}
      step={1}
      value={units}
      onValueChange={setUnits}
      formatValue={formatUnits}
      {...props}
    />
  );
}

describe('Slider', () => {
  describe('given a label, bounds and a formatter', () => {
    it('should be a native range input named by its visible label', () => {
      renderWithTheme(<Units />);
      const slider = screen.getByRole('slider', { name: 'Number of units' });
      expect(slider).toHaveAttribute('type', 'range');
      expect(slider).toHaveAttribute('min', '1');
      expect(slider).toHaveAttribute('max', '250');
      expect(slider).toHaveAttribute('step', '1');
      expect(screen.getByText('Number of units')).toBeVisible();
    });

    it('should announce the formatted value as aria-valuetext and show it', () => {
      renderWithTheme(<Units />);
      expect(screen.getByRole('slider')).toHaveAttribute('aria-valuetext', '1 unit');
      expect(screen.getAllByText('1 unit').length).toBeGreaterThan(0);
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<Units hint="Homes or commercial units" />);
      await expectNoAxeViolations(container);
    });
  });

  describe('when the user moves the thumb', () => {
    it('should report the new value and announce it', () => {
      renderWithTheme(<Units />);
      fireEvent.change(screen.getByRole('slider'), { target: { value: '42' } });
      expect(screen.getByRole('slider')).toHaveValue('42');
      expect(screen.getByRole('slider')).toHaveAttribute('aria-valuetext', '42 units');
    });

    it('should report numbers, not strings', () => {
      const onValueChange = vi.fn();
      renderWithTheme(
        <Slider label="Units" min={0} max={48} step={6} value={0} onValueChange={onValueChange} />,
      );
      fireEvent.change(screen.getByRole('slider'), { target: { value: '12' } });
      expect(onValueChange).toHaveBeenCalledWith(12);
    });
  });

  describe('given a hint', () => {
    it('should describe the slider with it', () => {
      renderWithTheme(<Units hint="Homes or commercial units" />);
      expect(screen.getByRole('slider')).toHaveAccessibleDescription('Homes or commercial units');
    });
  });

  describe('given showValue is false', () => {
    it('should not repeat the value beside the label', () => {
      renderWithTheme(<Units showValue={false} />);
      expect(screen.queryByText('1 unit')).not.toBeInTheDocument();
      expect(screen.getByRole('slider')).toHaveAttribute('aria-valuetext', '1 unit');
    });
  });
});

describe('percentOf', () => {
  it.each([
    [500_000, 500_000, 50_000_000, 0],
    [50_000_000, 500_000, 50_000_000, 100],
    [25_250_000, 500_000, 50_000_000, 50],
    [-10, 0, 10, 0],
    [20, 0, 10, 100],
    [5, 5, 5, 0],
  ])('should place %d between %d and %d at %d%%', (value, min, max, expected) => {
    expect(percentOf(value, min, max)).toBe(expected);
  });

  describe('properties', () => {
    it('should always lie between 0 and 100', () => {
      fc.assert(
        fc.property(rangeArb, fc.integer(), ({ min, max }, value) => {
          const percent = percentOf(value, min, max);
          expect(percent).toBeGreaterThanOrEqual(0);
          expect(percent).toBeLessThanOrEqual(100);
        }),
      );
    });

    it('should never decrease as the value rises', () => {
      fc.assert(
        fc.property(rangeArb, fc.integer(), fc.nat(), ({ min, max }, value, rise) => {
          expect(percentOf(value + rise, min, max)).toBeGreaterThanOrEqual(
            percentOf(value, min, max),
          );
        }),
      );
    });
  });
});

describe('snapToStep', () => {
  it.each([
    [1_234_567, 500_000, 50_000_000, 50_000, 1_250_000],
    [1_224_999, 500_000, 50_000_000, 50_000, 1_200_000],
    [0.30000000000000004, 0, 1, 0.1, 0.3],
    [7, 0, 48, 6, 6],
    [47, 0, 48, 6, 48],
    [-100, 0, 48, 6, 0],
  ])('should snap %d in [%d, %d] step %d to %d', (value, min, max, step, expected) => {
    expect(snapToStep(value, { min, max, step })).toBe(expected);
  });

  describe('properties', () => {
    it('should land on a step from min, within bounds, no more than half a step away', () => {
      fc.assert(
        fc.property(steppedRangeArb, ({ min, max, step, value }) => {
          const snapped = snapToStep(value, { min, max, step });
          expect(snapped).toBeGreaterThanOrEqual(min);
          expect(snapped).toBeLessThanOrEqual(max);
          expect((snapped - min) % step).toBe(0);
          expect(Math.abs(snapped - value)).toBeLessThanOrEqual(step / 2);
        }),
      );
    });
  });
});

describe('decimalCount', () => {
  it.each([
    [50_000, 0],
    [0.1, 1],
    [0.25, 2],
    [0.0085, 4],
  ])('should count the decimals of %d as %d', (value, expected) => {
    expect(decimalCount(value)).toBe(expected);
  });
});

// Helpers

const rangeArb = fc
  .tuple(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: 1, max: 1_000_000 }))
  .map(([min, width]) => ({ min, max: min + width }));

/** Integer ranges whose max is on the step grid, and a value inside them. */
const steppedRangeArb = fc
  .record({
    min: fc.integer({ min: 0, max: 1_000_000 }),
    step: fc.integer({ min: 1, max: 50_000 }),
    steps: fc.integer({ min: 1, max: 1_000 }),
  })
  .chain(({ min, step, steps }) =>
    fc
      .integer({ min, max: min + step * steps })
      .map((value) => ({ min, max: min + step * steps, step, value })),
  );
