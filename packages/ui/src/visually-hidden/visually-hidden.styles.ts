import { css, styled } from 'styled-components';

/** Hides content visually while keeping it in the accessibility tree (the "sr-only" pattern). */
export const visuallyHiddenCss = css`
  position: absolute !important;
  width: 1px !important;
  height: 1px !important;
  padding: 0 !important;
  margin: -1px !important;
  overflow: hidden !important;
  clip: rect(0, 0, 0, 0) !important;
  white-space: nowrap !important;
  border: 0 !important;
`;

export const StyledVisuallyHidden = styled.span`
  ${visuallyHiddenCss}
`;
