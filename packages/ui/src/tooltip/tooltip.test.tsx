import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { horizontalShift, Tooltip } from './tooltip';

function Help() {
  return (
    <>
      <Tooltip content="The gross development value when complete">
        <button type="button" aria-describedby="gdv-hint">
          GDV
        </button>
      </Tooltip>
      <p id="gdv-hint">In pounds</p>
      <button type="button">Next</button>
    </>
  );
}

const trigger = () => screen.getByRole('button', { name: 'GDV' });
const tooltip = () => screen.getByText('The gross development value when complete');

describe('Tooltip', () => {
  describe('given a closed tooltip', () => {
    it('should describe its trigger, keeping the trigger’s own description', () => {
      renderWithTheme(<Help />);
      expect(trigger()).toHaveAccessibleDescription(
        'In pounds The gross development value when complete',
      );
      expect(tooltip()).not.toBeVisible();
      expect(tooltip()).toHaveAttribute('data-state', 'closed');
    });

    describe('when the trigger is hovered', () => {
      it('should open at once', async () => {
        const { user } = renderWithTheme(<Help />);
        await user.hover(trigger());
        expect(screen.getByRole('tooltip')).toBeVisible();
        expect(screen.getByRole('tooltip')).toHaveTextContent(
          'The gross development value when complete',
        );
        expect(screen.getByRole('tooltip')).toHaveAttribute('data-state', 'open');
      });
    });

    describe('when the trigger receives keyboard focus', () => {
      it('should open at once', async () => {
        const { user } = renderWithTheme(<Help />);
        await user.tab();
        expect(trigger()).toHaveFocus();
        expect(screen.getByRole('tooltip')).toBeVisible();
      });
    });
  });

  describe('given an open tooltip', () => {
    describe('when Escape is pressed', () => {
      it('should close it, leaving focus on the trigger', async () => {
        const { user } = renderWithTheme(<Help />);
        await user.tab();
        await user.keyboard('{Escape}');
        expect(tooltip()).not.toBeVisible();
        expect(trigger()).toHaveFocus();
      });
    });

    describe('when the pointer moves onto the tooltip itself', () => {
      it('should stay open', async () => {
        const { user } = renderWithTheme(<Help />);
        await user.hover(trigger());
        await user.hover(screen.getByRole('tooltip'));
        expect(screen.getByRole('tooltip')).toBeVisible();
      });
    });

    describe('when the pointer leaves', () => {
      it('should close', async () => {
        const { user } = renderWithTheme(<Help />);
        await user.hover(trigger());
        await user.unhover(trigger());
        expect(tooltip()).not.toBeVisible();
      });
    });

    describe('when focus moves away', () => {
      it('should close', async () => {
        const { user } = renderWithTheme(<Help />);
        await user.tab();
        await user.tab();
        expect(screen.getByRole('button', { name: 'Next' })).toHaveFocus();
        expect(tooltip()).not.toBeVisible();
      });
    });

    it('should have no accessibility violations', async () => {
      const { user, container } = renderWithTheme(<Help />);
      await user.hover(trigger());
      await expectNoAxeViolations(container);
    });
  });

  describe('given it was dismissed with Escape', () => {
    describe('when the trigger is hovered again', () => {
      it('should open again', async () => {
        const { user } = renderWithTheme(<Help />);
        await user.hover(trigger());
        await user.keyboard('{Escape}');
        await user.unhover(trigger());
        await user.hover(trigger());
        expect(screen.getByRole('tooltip')).toBeVisible();
      });
    });

    // Found by the fifteenth session's accessibility probe: with the keyboard, the tooltip could not be shown again
    // without leaving the trigger and coming back.
    describe('when the focused trigger is activated with Enter or Space', () => {
      it.each(['{Enter}', ' '])('should open again (%s)', async (key) => {
        const { user } = renderWithTheme(<Help />);
        await user.tab();
        expect(trigger()).toHaveFocus();
        expect(screen.getByRole('tooltip')).toBeVisible();
        await user.keyboard('{Escape}');
        expect(screen.getByRole('tooltip', { hidden: true })).not.toBeVisible();
        await user.keyboard(key);
        expect(screen.getByRole('tooltip')).toBeVisible();
      });
    });
  });
});

describe('horizontalShift', () => {
  it.each([
    ['fits', 100, 200, 390, 0],
    ['overflows on the left', -40, 160, 390, 48],
    ['overflows on the right', 300, 420, 390, -38],
    ['is wider than the viewport', -20, 420, 390, 28],
    ['touches the right margin exactly', 200, 382, 390, 0],
  ])('should keep a box that %s inside the viewport', (_case, left, right, viewport, expected) => {
    expect(horizontalShift(left, right, viewport, 8)).toBe(expected);
  });
});
