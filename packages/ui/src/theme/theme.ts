import { AA_NON_TEXT_CONTRAST, AA_TEXT_CONTRAST, darken, ensureContrast } from './color';

/** A client's branding colours, as hex (`#1a4d8f` or `#fff`). Both optional. */
export interface Branding {
  /** Buttons, active states and focus ring. White text must be readable on it (darkened if not). */
  readonly primary?: string;
  /** Links and highlights on the page background (darkened if too light to read). */
  readonly accent?: string;
}

/** Screen widths in pixels from which a layout applies (`min-width`). */
export interface Breakpoints {
  readonly sm: number;
  readonly md: number;
  readonly lg: number;
}

/** Design tokens every component reads from the styled-components theme. */
export interface Theme {
  readonly color: {
    /** Branding primary, guaranteed ≥ 4.5:1 with `onPrimary` and as text on `surface` and `background`. */
    readonly primary: string;
    /** A darker shade of `primary` for hover and pressed states. */
    readonly primaryHover: string;
    /** Text and icons on `primary` (white). */
    readonly onPrimary: string;
    /** Branding accent, guaranteed ≥ 4.5:1 on `surface` and `background` (usable as link text). */
    readonly accent: string;
    /** Body text. */
    readonly text: string;
    /** Secondary text (hints, captions), ≥ 4.5:1 on `surface` and `background`. */
    readonly muted: string;
    /** Borders of controls, ≥ 3:1 on `surface` (WCAG 1.4.11). */
    readonly border: string;
    /** Decorative separators that carry no meaning. */
    readonly divider: string;
    /** Cards, inputs, panels. */
    readonly surface: string;
    /** Page background. */
    readonly background: string;
    /** Errors and invalid fields: a clear red, ≥ 4.5:1 on `surface`. */
    readonly failure: string;
    /** A pale background behind failure messages. */
    readonly failureSurface: string;
    /** Confirmations, ≥ 4.5:1 on `surface`. */
    readonly success: string;
    /** Keyboard focus indicator, ≥ 3:1 on `surface` and `background`. */
    readonly focusRing: string;
    /** Tooltip background (text is `onPrimary`). */
    readonly tooltip: string;
  };
  /** Spacing scale (CSS lengths). */
  readonly space: {
    readonly xxs: string;
    readonly xs: string;
    readonly sm: string;
    readonly md: string;
    readonly lg: string;
    readonly xl: string;
    readonly xxl: string;
  };
  readonly radius: {
    readonly sm: string;
    readonly md: string;
    readonly lg: string;
    readonly full: string;
  };
  readonly font: {
    readonly body: string;
    readonly mono: string;
  };
  readonly fontSize: {
    readonly xs: string;
    readonly sm: string;
    readonly md: string;
    readonly lg: string;
    readonly xl: string;
    readonly xxl: string;
    readonly xxxl: string;
  };
  readonly fontWeight: {
    readonly regular: number;
    readonly medium: number;
    readonly bold: number;
  };
  readonly lineHeight: {
    readonly tight: number;
    readonly normal: number;
  };
  readonly shadow: {
    readonly sm: string;
    readonly md: string;
  };
  /** Minimum widths in px: `sm` 480, `md` 768, `lg` 1024. */
  readonly breakpoints: Breakpoints;
  /** Ready-made media queries for the breakpoints, e.g. `${theme.media.md} { … }`. */
  readonly media: {
    readonly sm: string;
    readonly md: string;
    readonly lg: string;
    readonly reducedMotion: string;
    /** Windows High Contrast and other forced colours: backgrounds become Canvas, so state drawn in them is lost. */
    readonly forcedColors: string;
  };
  readonly motion: {
    /** Transition duration in ms (accordion, toggles). None under `prefers-reduced-motion: reduce`. */
    readonly duration: number;
    readonly easing: string;
  };
  readonly zIndex: {
    readonly tooltip: number;
  };
}

/** The firm's own colours, used when a client has no branding. */
export const DEFAULT_BRANDING = {
  primary: '#1a4d8f',
  accent: '#0f7c80',
} as const satisfies Required<Branding>;

const WHITE = '#ffffff';
const BACKGROUND = '#f5f7fa';

const BREAKPOINTS = { sm: 480, md: 768, lg: 1024 } as const satisfies Breakpoints;

/**
 * Builds the theme from a client's branding. Colours too light for their role are darkened (hue kept)
 * until they meet WCAG AA: white text on `primary`, and `primary` or `accent` as text on the page, at
 * 4.5:1.
 *
 * @example
 * const theme = createTheme({ primary: '#ffcc00' });
 * // theme.color.primary is a dark gold that carries white text at ≥ 4.5:1
 * @throws TypeError when a branding colour is not a hex colour (`#1a4d8f` or `#fff`).
 */
export function createTheme(branding: Branding = {}): Theme {
  // Checked against the page background, the darker of the two light neutrals a primary sits on: a
  // primary dark enough for it is dark enough for white text and for text on white surfaces too.
  const primary = ensureContrast(
    branding.primary ?? DEFAULT_BRANDING.primary,
    BACKGROUND,
    AA_TEXT_CONTRAST,
  );
  const accent = ensureContrast(
    branding.accent ?? DEFAULT_BRANDING.accent,
    BACKGROUND,
    AA_TEXT_CONTRAST,
  );
  return {
    color: {
      primary,
      primaryHover: darken(primary, 0.15),
      onPrimary: WHITE,
      accent,
      text: '#1b1f24',
      muted: '#5c6670',
      border: '#7a828c',
      divider: '#d9dde3',
      surface: WHITE,
      background: BACKGROUND,
      failure: '#c62828',
      failureSurface: '#fdecea',
      success: '#1b7a3d',
      focusRing: ensureContrast(primary, BACKGROUND, AA_NON_TEXT_CONTRAST),
      tooltip: '#1b1f24',
    },
    space: {
      xxs: '2px',
      xs: '4px',
      sm: '8px',
      md: '12px',
      lg: '16px',
      xl: '24px',
      xxl: '32px',
    },
    radius: { sm: '4px', md: '8px', lg: '12px', full: '9999px' },
    font: {
      body: "system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', sans-serif",
      mono: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
    },
    fontSize: {
      xs: '0.75rem',
      sm: '0.875rem',
      md: '1rem',
      lg: '1.125rem',
      xl: '1.25rem',
      xxl: '1.5rem',
      xxxl: '2rem',
    },
    fontWeight: { regular: 400, medium: 500, bold: 700 },
    lineHeight: { tight: 1.25, normal: 1.5 },
    shadow: {
      sm: '0 1px 2px rgba(16, 24, 40, 0.08)',
      md: '0 4px 12px rgba(16, 24, 40, 0.12)',
    },
    breakpoints: BREAKPOINTS,
    media: {
      sm: `@media (min-width: ${BREAKPOINTS.sm}px)`,
      md: `@media (min-width: ${BREAKPOINTS.md}px)`,
      lg: `@media (min-width: ${BREAKPOINTS.lg}px)`,
      reducedMotion: '@media (prefers-reduced-motion: reduce)',
      forcedColors: '@media (forced-colors: active)',
    },
    motion: { duration: 300, easing: 'cubic-bezier(0.4, 0, 0.2, 1)' },
    zIndex: { tooltip: 1000 },
  };
}

/** The theme with the firm's own colours. */
export const defaultTheme: Theme = createTheme();

declare module 'styled-components' {
  // Components read typed tokens from the styled-components theme.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  export interface DefaultTheme extends Theme {}
}
