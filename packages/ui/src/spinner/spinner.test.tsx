import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { Spinner } from './spinner';

describe('Spinner', () => {
  describe('given no label', () => {
    it('should announce "Loading" as a status', () => {
      renderWithTheme(<Spinner />);
      expect(screen.getByRole('status')).toHaveTextContent('Loading');
    });
  });

  describe('given a label', () => {
    it('should announce that label', () => {
      renderWithTheme(<Spinner label="Sending your request" />);
      expect(screen.getByRole('status')).toHaveTextContent('Sending your request');
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<Spinner label="Sending your request" />);
      await expectNoAxeViolations(container);
    });
  });

  describe('given it is decorative', () => {
    it('should be hidden from assistive technology', () => {
      const { container } = renderWithTheme(<Spinner decorative />);
      expect(screen.queryByRole('status')).not.toBeInTheDocument();
      expect(container.firstElementChild).toHaveAttribute('aria-hidden', 'true');
    });
  });
});
