import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  contrastRatio,
  darken,
  ensureContrast,
  parseHexColour,
  relativeLuminance,
  toHex,
} from './color';
import { createTheme, DEFAULT_BRANDING, defaultTheme } from './theme';

describe('colour maths', () => {
  it('should compute the WCAG contrast of black on white as 21:1', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
  });

  it('should compute the contrast of #767676 on white as just above 4.5:1', () => {
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
  });

  it('should read three-digit hex colours like their six-digit form', () => {
    expect(parseHexColour('#fc0')).toEqual(parseHexColour('#ffcc00'));
    expect(toHex(parseHexColour(' #FFCC00 '))).toBe('#ffcc00');
  });

  it('should reject anything that is not a hex colour with a clear message', () => {
    expect(() => parseHexColour('red')).toThrow('Invalid colour "red": expected a hex colour');
    expect(() => parseHexColour('#12345')).toThrow(TypeError);
  });

  it('should keep a colour that already has enough contrast', () => {
    expect(ensureContrast('#1a4d8f', '#ffffff')).toBe('#1a4d8f');
  });

  it('should darken a light colour until it reaches the requested contrast', () => {
    const darkened = ensureContrast('#ffcc00', '#ffffff', 4.5);
    expect(contrastRatio('#ffcc00', '#ffffff')).toBeLessThan(4.5);
    expect(contrastRatio(darkened, '#ffffff')).toBeGreaterThanOrEqual(4.5);
    expect(relativeLuminance(darkened)).toBeLessThan(relativeLuminance('#ffcc00'));
  });

  it('should fail clearly when no shade can reach the contrast', () => {
    expect(() => ensureContrast('#ffffff', '#777777', 7)).toThrow(RangeError);
  });

  describe('properties', () => {
    it('should always return a shade with at least AA contrast on white', () => {
      fc.assert(
        fc.property(hexColourArb, (colour) => {
          expect(
            contrastRatio(ensureContrast(colour, '#ffffff'), '#ffffff'),
          ).toBeGreaterThanOrEqual(4.5);
        }),
      );
    });

    it('should never make a colour lighter', () => {
      fc.assert(
        fc.property(hexColourArb, fc.double({ min: 0, max: 1, noNaN: true }), (colour, amount) => {
          expect(relativeLuminance(darken(colour, amount))).toBeLessThanOrEqual(
            relativeLuminance(colour) + 1e-12,
          );
        }),
      );
    });
  });
});

describe('createTheme', () => {
  describe('given no branding', () => {
    it('should use the firm’s own colours', () => {
      const theme = createTheme();
      expect(theme.color.primary).toBe(DEFAULT_BRANDING.primary);
      expect(theme.color.accent).toBe(DEFAULT_BRANDING.accent);
      expect(defaultTheme).toEqual(theme);
    });
  });

  describe('given a branding primary too light for white text', () => {
    const theme = createTheme({ primary: '#ffcc00', accent: '#7fd4ff' });

    it('should darken the primary until white text on it meets AA', () => {
      expect(theme.color.primary).not.toBe('#ffcc00');
      expect(contrastRatio(theme.color.onPrimary, theme.color.primary)).toBeGreaterThanOrEqual(4.5);
    });

    it('should darken the accent until it reads as text on the page background', () => {
      expect(contrastRatio(theme.color.accent, theme.color.background)).toBeGreaterThanOrEqual(4.5);
      expect(contrastRatio(theme.color.accent, theme.color.surface)).toBeGreaterThanOrEqual(4.5);
    });
  });

  describe('given a dark branding primary', () => {
    it('should keep it as it is', () => {
      expect(createTheme({ primary: '#003366' }).color.primary).toBe('#003366');
    });
  });

  describe('given a branding colour that is not a hex colour', () => {
    it('should throw a clear error', () => {
      expect(() => createTheme({ primary: 'blue' })).toThrow('Invalid colour "blue"');
    });
  });

  describe('for every branding', () => {
    it('should meet WCAG AA for every text and control colour', () => {
      fc.assert(
        fc.property(hexColourArb, hexColourArb, (primary, accent) => {
          const { color } = createTheme({ primary, accent });
          for (const page of [color.surface, color.background]) {
            expect(contrastRatio(color.text, page)).toBeGreaterThanOrEqual(4.5);
            expect(contrastRatio(color.muted, page)).toBeGreaterThanOrEqual(4.5);
            expect(contrastRatio(color.accent, page)).toBeGreaterThanOrEqual(4.5);
            expect(contrastRatio(color.primary, page)).toBeGreaterThanOrEqual(4.5);
            expect(contrastRatio(color.failure, page)).toBeGreaterThanOrEqual(4.5);
            expect(contrastRatio(color.success, page)).toBeGreaterThanOrEqual(4.5);
            expect(contrastRatio(color.focusRing, page)).toBeGreaterThanOrEqual(3);
            expect(contrastRatio(color.border, page)).toBeGreaterThanOrEqual(3);
          }
          expect(contrastRatio(color.onPrimary, color.primary)).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(color.onPrimary, color.primaryHover)).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(color.onPrimary, color.tooltip)).toBeGreaterThanOrEqual(4.5);
          expect(contrastRatio(color.failure, color.failureSurface)).toBeGreaterThanOrEqual(4.5);
        }),
      );
    });
  });

  it('should expose the breakpoints, their media queries and a 300 ms motion duration', () => {
    expect(defaultTheme.breakpoints).toEqual({ sm: 480, md: 768, lg: 1024 });
    expect(defaultTheme.media.md).toBe('@media (min-width: 768px)');
    expect(defaultTheme.motion.duration).toBe(300);
  });
});

// Helpers

const hexColourArb = fc
  .tuple(
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
    fc.integer({ min: 0, max: 255 }),
  )
  .map(([r, g, b]) => toHex({ r, g, b }));
