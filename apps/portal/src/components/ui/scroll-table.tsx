import { css, styled } from 'styled-components';

/** Only on screens too narrow for the whole table. */
export const ScrollHint = styled.p`
  margin: 0 0 ${({ theme }) => theme.space.sm};
  font-size: ${({ theme }) => theme.fontSize.sm};
  color: ${({ theme }) => theme.color.muted};

  ${({ theme }) => theme.media.lg} {
    display: none;
  }
`;

/**
 * A labelled, focusable region (`role="region"`, `aria-labelledby`, `tabIndex={0}`) that scrolls a wide table
 * sideways inside itself, so the page never does.
 */
export const Scroller = styled.div`
  /* Positioned, so the visually hidden texts in the cells are clipped here, not by the page. */
  position: relative;
  overflow-x: auto;
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.color.surface};

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
  }
`;

/** For a table inside a {@link Scroller}: the first column stays in view while the others scroll sideways. */
export const stickyFirstColumn = css`
  tr > :first-child {
    position: sticky;
    left: 0;
    z-index: 1;
    background: ${({ theme }) => theme.color.surface};
    box-shadow: inset -1px 0 0 ${({ theme }) => theme.color.divider};
  }

  thead tr > :first-child {
    background: ${({ theme }) => theme.color.background};
  }
`;
