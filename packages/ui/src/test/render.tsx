import { render, type RenderOptions, type RenderResult } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement, ReactNode } from 'react';
import { ThemeProvider } from 'styled-components';
import { defaultTheme, type Theme } from '../theme/theme';

interface ThemedRenderOptions extends Omit<RenderOptions, 'wrapper'> {
  theme?: Theme;
}

/** Renders inside the ThemeProvider (as the portal does) and returns a user-event session too. */
export function renderWithTheme(
  ui: ReactElement,
  { theme = defaultTheme, ...options }: ThemedRenderOptions = {},
): RenderResult & { user: ReturnType<typeof userEvent.setup> } {
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <ThemeProvider theme={theme}>{children}</ThemeProvider>
  );
  return { user: userEvent.setup(), ...render(ui, { wrapper: Wrapper, ...options }) };
}
