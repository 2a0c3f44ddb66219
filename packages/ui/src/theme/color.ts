/**
 * Colour maths for the theme: parsing hex colours, WCAG 2 relative luminance and contrast ratio, and
 * darkening a colour until text on it is readable. Pure functions, no DOM.
 */

/** An sRGB colour with 0–255 channels. */
export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** The WCAG 2 AA minimum contrast for body text. */
export const AA_TEXT_CONTRAST = 4.5;

/** The WCAG 2 AA minimum contrast for focus indicators, borders of controls and large text. */
export const AA_NON_TEXT_CONTRAST = 3;

/**
 * Parses `#rgb` or `#rrggbb` (case-insensitive, surrounding spaces ignored).
 *
 * @example
 * parseHexColour('#1a4d8f'); // { r: 26, g: 77, b: 143 }
 * parseHexColour('#fff'); // { r: 255, g: 255, b: 255 }
 * @throws TypeError when the text is not a hex colour.
 */
export function parseHexColour(text: string): Rgb {
  const hex = text.trim();
  if (!HEX_COLOUR.test(hex)) {
    throw new TypeError(`Invalid colour "${text}": expected a hex colour such as #1a4d8f or #fff.`);
  }
  const digits =
    hex.length === 4
      ? hex
          .slice(1)
          .split('')
          .map((d) => d + d)
          .join('')
      : hex.slice(1);
  return {
    r: Number.parseInt(digits.slice(0, 2), 16),
    g: Number.parseInt(digits.slice(2, 4), 16),
    b: Number.parseInt(digits.slice(4, 6), 16),
  };
}

/**
 * Formats a colour as lower-case `#rrggbb`.
 *
 * @example
 * toHex({ r: 26, g: 77, b: 143 }); // '#1a4d8f'
 */
export function toHex({ r, g, b }: Rgb): string {
  return `#${[r, g, b].map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;
}

function channelLuminance(channel: number): number {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
}

/**
 * WCAG 2 relative luminance, from 0 (black) to 1 (white).
 *
 * @example
 * relativeLuminance('#ffffff'); // 1
 * relativeLuminance('#000000'); // 0
 */
export function relativeLuminance(colour: string): number {
  const { r, g, b } = parseHexColour(colour);
  return 0.2126 * channelLuminance(r) + 0.7152 * channelLuminance(g) + 0.0722 * channelLuminance(b);
}

/**
 * WCAG 2 contrast ratio between two colours, from 1 (same) to 21 (black on white). Symmetric.
 *
 * @example
 * contrastRatio('#000000', '#ffffff'); // 21
 * contrastRatio('#767676', '#ffffff'); // ≈ 4.54
 */
export function contrastRatio(a: string, b: string): number {
  const la = relativeLuminance(a);
  const lb = relativeLuminance(b);
  const [lighter, darker] = la > lb ? [la, lb] : [lb, la];
  return (lighter + 0.05) / (darker + 0.05);
}

/**
 * Mixes a colour towards black by `amount` (0 = unchanged, 1 = black), keeping its hue.
 *
 * @example
 * darken('#ffffff', 0.5); // '#808080'
 */
export function darken(colour: string, amount: number): string {
  const { r, g, b } = parseHexColour(colour);
  const keep = 1 - Math.min(1, Math.max(0, amount));
  return toHex({ r: r * keep, g: g * keep, b: b * keep });
}

/**
 * Returns `colour` when it already has at least `minimum` contrast with `against`; otherwise the least
 * darkened shade of it (in 1% steps towards black) that does. Used so that a client's branding
 * colour can carry white text, or sit as text on a white surface, and still meet WCAG AA.
 *
 * @example
 * ensureContrast('#1a4d8f', '#ffffff'); // '#1a4d8f' (already 8.5:1)
 * ensureContrast('#ffcc00', '#ffffff'); // a dark gold with ≥ 4.5:1
 * @throws RangeError when `against` is so dark that no shade of `colour` can reach `minimum`.
 */
export function ensureContrast(
  colour: string,
  against: string,
  minimum: number = AA_TEXT_CONTRAST,
): string {
  const start = toHex(parseHexColour(colour));
  for (let step = 0; step <= 100; step += 1) {
    const candidate = darken(start, step / 100);
    if (contrastRatio(candidate, against) >= minimum) {
      return candidate;
    }
  }
  throw new RangeError(
    `No shade of ${colour} reaches a contrast of ${minimum}:1 against ${against}; choose a lighter background.`,
  );
}
