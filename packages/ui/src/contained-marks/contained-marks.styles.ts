import { css } from 'styled-components';

/**
 * For a block that shows text from content (a title): what is drawn more than half its font size outside its box
 * is clipped. "Zalgo" text, a letter under a tower of combining marks, is drawn hundreds of pixels above and below
 * its line, over the page's header and the text around it (a fault carried from an earlier portal probe); the
 * half font size left around the box is far more than accents, stacked diacritics and descenders of any script
 * need, so real text is drawn whole. `overflow: clip` is not a scroll container (no scrolling, no tab stop, no
 * new containing block for positioned descendants: a card's stretched link still covers the card), and the
 * element's own outline (a focus ring) is never clipped by it. Both axes clip: Chromium honours
 * `overflow-clip-margin` only then. Where it is not supported (Safari), the clip would fall on the box itself and
 * could cut a descender: there nothing is clipped.
 */
export const containMarksCss = css`
  @supports (overflow-clip-margin: 1px) {
    overflow: clip;
    overflow-clip-margin: 0.5em;
  }
`;
