import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultTheme } from '../theme/theme';
import { expectNoAxeViolations } from '../test/axe';
import { renderWithTheme } from '../test/render';
import { TextArea } from './text-area';

describe('TextArea', () => {
  describe('given it is invalid with an error message', () => {
    it('should be a labelled, described, invalid multi-line field', () => {
      renderWithTheme(
        <TextArea label="Project description" invalid errorMessage="Describe the project" />,
      );
      const textArea = screen.getByRole('textbox', { name: 'Project description' });
      expect(textArea.tagName).toBe('TEXTAREA');
      expect(textArea).toHaveAttribute('aria-invalid', 'true');
      expect(textArea).toHaveAccessibleDescription('Describe the project');
      expect(textArea).toHaveStyle({ borderColor: defaultTheme.color.failure });
    });

    it('should have no accessibility violations', async () => {
      const { container } = renderWithTheme(
        <TextArea label="Project description" invalid errorMessage="Describe the project" />,
      );
      await expectNoAxeViolations(container);
    });
  });
});
