export { createTheme, defaultTheme, DEFAULT_BRANDING } from './theme';
export type { Branding, Breakpoints, Theme } from './theme';
export { GlobalStyle } from './global-style';
export { contrastRatio, ensureContrast } from './color';
