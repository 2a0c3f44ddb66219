import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { Toggle } from './toggle';

function LossOfRent({ initial = false }: { initial?: boolean }) {
  const [checked, setChecked] = useState(initial);
  return <Toggle label="Include loss of rent" checked={checked} onCheckedChange={setChecked} />;
}

const toggle = () => screen.getByRole('switch', { name: 'Include loss of rent' });

describe('Toggle', () => {
  describe('given it is off', () => {
    it('should be a switch named by its label, not checked', () => {
      renderWithTheme(<LossOfRent />);
      expect(toggle()).toHaveAttribute('aria-checked', 'false');
      expect(toggle()).toHaveAttribute('data-state', 'unchecked');
      expect(toggle()).toHaveAttribute('type', 'button');
    });

    describe('when it is clicked', () => {
      it('should switch on', async () => {
        const { user } = renderWithTheme(<LossOfRent />);
        await user.click(toggle());
        expect(toggle()).toBeChecked();
        expect(toggle()).toHaveAttribute('data-state', 'checked');
      });
    });

    describe('when Space is pressed', () => {
      it('should switch on', async () => {
        const { user } = renderWithTheme(<LossOfRent />);
        toggle().focus();
        await user.keyboard(' ');
        expect(toggle()).toBeChecked();
      });
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<LossOfRent />);
      await expectNoAxeViolations(container);
    });
  });

  describe('given it is on', () => {
    describe('when Enter is pressed', () => {
      it('should switch off', async () => {
        const { user } = renderWithTheme(<LossOfRent initial />);
        toggle().focus();
        await user.keyboard('{Enter}');
        expect(toggle()).not.toBeChecked();
      });
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<LossOfRent initial />);
      await expectNoAxeViolations(container);
    });
  });

  describe('given a parent that does not update checked', () => {
    it('should report the requested state and keep showing the parent’s', async () => {
      const onCheckedChange = vi.fn();
      const { user } = renderWithTheme(
        <Toggle label="Has basement" checked={false} onCheckedChange={onCheckedChange} />,
      );
      await user.click(screen.getByRole('switch', { name: 'Has basement' }));
      expect(onCheckedChange).toHaveBeenCalledWith(true);
      expect(screen.getByRole('switch')).not.toBeChecked();
    });
  });

  describe('given it is inside a form', () => {
    it('should not submit the form', async () => {
      const onSubmit = vi.fn();
      const { user } = renderWithTheme(
        <form onSubmit={onSubmit}>
          <Toggle label="Flat roof" checked={false} onCheckedChange={() => undefined} />
        </form>,
      );
      await user.click(screen.getByRole('switch'));
      expect(onSubmit).not.toHaveBeenCalled();
    });
  });
});
