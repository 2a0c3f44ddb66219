import { render } from '@testing-library/react';
import { ThemeProvider } from 'styled-components';
import { describe, expect, it } from 'vitest';
import * as ui from './index';

describe('the public API', () => {
  it('should export every name of the @firm/ui contract', () => {
    const contract = [
      'Accordion',
      'AccordionItem',
      'Slider',
      'MoneySliderField',
      'parseMoneyInput',
      'Card',
      'Button',
      'TextField',
      'TextArea',
      'Select',
      'Toggle',
      'Tooltip',
      'Spinner',
      'FileField',
      'VisuallyHidden',
      'createTheme',
      'defaultTheme',
      'GlobalStyle',
    ];
    const missing = contract.filter((name) => !(name in ui));
    expect(missing).toEqual([]);
  });
});

describe('GlobalStyle', () => {
  describe('given it is rendered inside the ThemeProvider', () => {
    it('should set border-box sizing, the system font stack and a focus-visible ring', () => {
      render(
        <ThemeProvider theme={ui.defaultTheme}>
          <ui.GlobalStyle />
        </ThemeProvider>,
      );
      const css = Array.from(document.querySelectorAll('style'))
        .map((style) => style.textContent)
        .join('\n');
      expect(css).toMatch(/box-sizing:\s*border-box/);
      expect(css).toMatch(/body\{[^}]*font-family:system-ui/);
      expect(css).toMatch(
        new RegExp(`:focus-visible\\{outline:3px solid ${ui.defaultTheme.color.focusRing}`),
      );
    });
  });
});
