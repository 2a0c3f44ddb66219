import { describe, expect, it } from 'vitest';
import { stepFromBetween } from './money-slider-field';

const UP = ['ArrowRight', 'ArrowUp', 'PageUp', 'End'];
const DOWN = ['ArrowLeft', 'ArrowDown', 'PageDown', 'Home'];

describe('stepFromBetween', () => {
  describe('given an amount on a step', () => {
    it('should leave every key to the browser', () => {
      for (const key of [...UP, ...DOWN]) {
        expect(
          stepFromBetween(key, 12_500_000, { min: 500_000, max: 50_000_000, step: 50_000 }),
          key,
        ).toBe(undefined);
      }
    });
  });

  describe('given an amount between two steps', () => {
    it('should leave other keys to the browser', () => {
      for (const key of ['Tab', 'Enter', ' ', 'a']) {
        expect(
          stepFromBetween(key, 12_345_678, { min: 500_000, max: 50_000_000, step: 50_000 }),
        ).toBe(undefined);
      }
    });

    it('should always move the way of the key, to a step or a bound, never more than a page', () => {
      const ranges = [
        { min: 500_000, max: 50_000_000, step: 50_000 },
        { min: 8_000_000, max: 350_000_000, step: 500_000 },
        { min: 0, max: 50_000_000, step: 50_000 },
        // A range of fewer than ten steps (a page is one step) and one whose maximum is off the steps.
        { min: 0, max: 48, step: 6 },
        { min: 0, max: 1_050_000, step: 100_000 },
      ];
      for (const range of ranges) {
        const { min, max, step } = range;
        const page = Math.max(1, Math.round((max - min) / 10 / step)) * step;
        const amounts = [
          min + 1,
          min + step - 1,
          Math.floor((min + max) / 2) + 1,
          max - step + 1,
          max - 1,
        ].filter((amount) => !Number.isInteger((amount - min) / step));
        for (const amount of amounts) {
          for (const key of [...UP, ...DOWN]) {
            const next = stepFromBetween(key, amount, range);
            const label = `${key} from ${amount} in ${min}…${max} by ${step}`;
            expect(next, label).toBeDefined();
            const to = next as number;
            expect(to >= min && to <= max, label).toBe(true);
            expect(Number.isInteger((to - min) / step) || to === max, label).toBe(true);
            if (UP.includes(key)) expect(to, label).toBeGreaterThan(amount);
            else expect(to, label).toBeLessThan(amount);
            if (key.startsWith('Page'))
              expect(Math.abs(to - amount), label).toBeLessThanOrEqual(page);
            if (key.startsWith('Arrow')) expect(Math.abs(to - amount), label).toBeLessThan(step);
          }
        }
      }
    });

    it('should go to the bounds on Home and End', () => {
      const range = { min: 500_000, max: 50_000_000, step: 50_000 };
      expect(stepFromBetween('Home', 510_000, range)).toBe(500_000);
      expect(stepFromBetween('End', 510_000, range)).toBe(50_000_000);
      expect(stepFromBetween('Home', 49_990_000, range)).toBe(500_000);
      expect(stepFromBetween('End', 49_990_000, range)).toBe(50_000_000);
    });
  });
});
