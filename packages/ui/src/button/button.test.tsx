import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { Button } from './button';

describe('Button', () => {
  describe('given an idle button', () => {
    describe('when it is clicked', () => {
      it('should call onClick', async () => {
        const onClick = vi.fn();
        const { user } = renderWithTheme(<Button onClick={onClick}>Continue</Button>);
        await user.click(screen.getByRole('button', { name: 'Continue' }));
        expect(onClick).toHaveBeenCalledTimes(1);
      });
    });

    describe('when it is inside a form and pressed', () => {
      it('should submit the form like a native button', async () => {
        const onSubmit = vi.fn((event: { preventDefault(): void }) => event.preventDefault());
        const { user } = renderWithTheme(
          <form onSubmit={onSubmit}>
            <Button>Continue</Button>
          </form>,
        );
        await user.click(screen.getByRole('button', { name: 'Continue' }));
        expect(onSubmit).toHaveBeenCalledTimes(1);
      });
    });

    it('should not be busy', () => {
      renderWithTheme(<Button>Continue</Button>);
      expect(screen.getByRole('button')).not.toHaveAttribute('aria-busy');
      expect(screen.getByRole('button')).toBeEnabled();
    });

    it('should pass style-only props as transient props, not DOM attributes', () => {
      renderWithTheme(
        <Button variant="secondary" size="sm" fullWidth>
          Continue
        </Button>,
      );
      const button = screen.getByRole('button');
      expect(button).not.toHaveAttribute('variant');
      expect(button).not.toHaveAttribute('fullwidth');
      expect(button).toHaveAttribute('data-variant', 'secondary');
    });
  });

  describe('given a loading button', () => {
    it('should show a spinner, be busy and be announced as unavailable', () => {
      const { container } = renderWithTheme(<Button loading>Continue</Button>);
      const button = screen.getByRole('button', { name: 'Continue' });
      expect(button).toHaveAttribute('aria-busy', 'true');
      expect(button).toHaveAttribute('aria-disabled', 'true');
      expect(container.querySelector('[data-ui="spinner"]')).toBeInTheDocument();
    });

    it('should keep keyboard focus while it works (a disabled button would drop it to the page)', () => {
      const { rerender } = renderWithTheme(<Button>Continue</Button>);
      const button = screen.getByRole('button', { name: 'Continue' });
      button.focus();
      rerender(<Button loading>Continue</Button>);
      expect(button).not.toBeDisabled();
      expect(button).toHaveFocus();
    });

    describe('when it is pressed inside a form', () => {
      it('should not submit the form again', async () => {
        const onSubmit = vi.fn((event: { preventDefault: () => void }) => event.preventDefault());
        const { user } = renderWithTheme(
          <form onSubmit={onSubmit}>
            <Button type="submit" loading>
              Continue
            </Button>
          </form>,
        );
        await user.click(screen.getByRole('button', { name: 'Continue' }));
        screen.getByRole('button', { name: 'Continue' }).focus();
        await user.keyboard('{Enter}');
        expect(onSubmit).not.toHaveBeenCalled();
      });
    });

    describe('when it is clicked', () => {
      it('should not call onClick', async () => {
        const onClick = vi.fn();
        const { user } = renderWithTheme(
          <Button loading onClick={onClick}>
            Continue
          </Button>,
        );
        await user.click(screen.getByRole('button', { name: 'Continue' }));
        expect(onClick).not.toHaveBeenCalled();
      });
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(<Button loading>Continue</Button>);
      await expectNoAxeViolations(container);
    });
  });

  it('should have no accessibility violations in any variant', async () => {
    const { container } = renderWithTheme(
      <>
        <Button>Primary</Button>
        <Button variant="secondary">Secondary</Button>
        <Button variant="ghost">Ghost</Button>
      </>,
    );
    await expectNoAxeViolations(container);
  });
});
