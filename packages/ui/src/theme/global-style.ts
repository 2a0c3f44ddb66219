import { createGlobalStyle } from 'styled-components';

/**
 * Page-wide basics: border-box sizing, the system font stack, theme colours, and a visible focus ring
 * for keyboard users (`:focus-visible`) on every focusable element. Render it once inside the
 * `ThemeProvider`.
 */
export const GlobalStyle = createGlobalStyle`
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }

  html {
    -webkit-text-size-adjust: 100%;
  }

  body {
    margin: 0;
    font-family: ${({ theme }) => theme.font.body};
    font-size: ${({ theme }) => theme.fontSize.md};
    line-height: ${({ theme }) => theme.lineHeight.normal};
    color: ${({ theme }) => theme.color.text};
    background: ${({ theme }) => theme.color.background};
  }

  a {
    color: ${({ theme }) => theme.color.accent};
  }

  :focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
  }

  [hidden] {
    display: none !important;
  }

  ${({ theme }) => theme.media.reducedMotion} {
    html {
      scroll-behavior: auto !important;
    }
  }
`;
