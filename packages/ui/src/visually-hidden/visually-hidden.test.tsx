import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { VisuallyHidden } from './visually-hidden';

function MenuButton() {
  return (
    <button type="button">
      <svg aria-hidden="true" viewBox="0 0 10 10" />
      <VisuallyHidden>Open the menu</VisuallyHidden>
    </button>
  );
}

describe('VisuallyHidden', () => {
  describe('given text inside an icon button', () => {
    it('should give the button its accessible name', () => {
      renderWithTheme(<MenuButton />);
      expect(screen.getByRole('button', { name: 'Open the menu' })).toBeInTheDocument();
    });

    it('should clip the text to a 1px box off screen', () => {
      renderWithTheme(<MenuButton />);
      expect(screen.getByText('Open the menu')).toHaveStyle({
        position: 'absolute',
        width: '1px',
        height: '1px',
        overflow: 'hidden',
      });
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<MenuButton />);
      await expectNoAxeViolations(container);
    });
  });
});
