import { screen } from '@testing-library/react';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { defaultTheme } from '../theme/theme';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { TextField } from './text-field';

function ControlledName() {
  const [name, setName] = useState('');
  return (
    <>
      <TextField label="Name" value={name} onChange={(event) => setName(event.target.value)} />
      <output>{name}</output>
    </>
  );
}

describe('TextField', () => {
  describe('given a label', () => {
    it('should be found by its label', () => {
      renderWithTheme(<TextField label="Email" type="email" name="email" />);
      const input = screen.getByLabelText('Email');
      expect(input).toHaveAttribute('type', 'email');
      expect(input).toHaveAttribute('name', 'email');
    });

    describe('when the user types', () => {
      it('should report each change', async () => {
        const { user } = renderWithTheme(<ControlledName />);
        await user.type(screen.getByLabelText('Name'), 'Ada');
        expect(screen.getByRole('status')).toHaveTextContent('Ada');
      });
    });

    it('should not be invalid', () => {
      renderWithTheme(<TextField label="Name" />);
      expect(screen.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
    });
  });

  describe('given a hint', () => {
    it('should describe the input with it', () => {
      renderWithTheme(<TextField label="Telephone" hint="We call only about this request" />);
      expect(screen.getByLabelText('Telephone')).toHaveAccessibleDescription(
        'We call only about this request',
      );
    });
  });

  describe('given it is invalid', () => {
    it('should set aria-invalid and draw the border in the failure colour', () => {
      renderWithTheme(<TextField label="Name" invalid />);
      const input = screen.getByLabelText('Name');
      expect(input).toHaveAttribute('aria-invalid', 'true');
      expect(input).toHaveStyle({ borderColor: defaultTheme.color.failure });
    });

    describe('with an error message', () => {
      it('should show the message and describe the input with it', () => {
        renderWithTheme(
          <TextField
            label="Name"
            invalid
            errorMessage="Enter your name"
            aria-describedby="extra"
          />,
        );
        expect(screen.getByText('Enter your name')).toBeVisible();
        const input = screen.getByLabelText('Name');
        expect(input.getAttribute('aria-describedby')?.split(' ')).toContain('extra');
        expect(input).toHaveAccessibleDescription('Enter your name');
      });

      it('should have no accessibility violations', async () => {
        const { container } = renderWithTheme(
          <TextField label="Name" invalid errorMessage="Enter your name" hint="As on your ID" />,
        );
        await expectNoAxeViolations(container);
      });
    });
  });

  describe('given an error message without the invalid flag', () => {
    it('should still be marked invalid', () => {
      renderWithTheme(<TextField label="Name" errorMessage="Enter your name" />);
      expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    });
  });

  describe('given an id', () => {
    it('should use it for the input', () => {
      renderWithTheme(<TextField label="Name" id="first-name" />);
      expect(screen.getByLabelText('Name')).toHaveAttribute('id', 'first-name');
    });
  });
});
