import { css, styled } from 'styled-components';

const TRACK_HEIGHT = '6px';
const THUMB_SIZE = '1.375rem';

const trackCss = css`
  height: ${TRACK_HEIGHT};
  border-radius: ${({ theme }) => theme.radius.full};
  /* Filled up to the value (--slider-fill, set inline), the rest in the control border colour. */
  background: linear-gradient(
    to right,
    ${({ theme }) => theme.color.primary} 0 var(--slider-fill, 0%),
    ${({ theme }) => theme.color.border} var(--slider-fill, 0%) 100%
  );
`;

const thumbCss = css`
  width: ${THUMB_SIZE};
  height: ${THUMB_SIZE};
  border: 3px solid ${({ theme }) => theme.color.surface};
  border-radius: 50%;
  background: ${({ theme }) => theme.color.primary};
  box-shadow: 0 0 0 1px ${({ theme }) => theme.color.primary};
  cursor: grab;
`;

/** Under forced colours: the track drawn and filled in system colours (a gradient background is dropped there). */
const forcedTrackCss = css`
  border: 1px solid CanvasText;
  background: linear-gradient(
    to right,
    Highlight 0 var(--slider-fill, 0%),
    Canvas var(--slider-fill, 0%) 100%
  );
`;

const forcedThumbCss = css`
  border-color: Canvas;
  background: CanvasText;
  box-shadow: 0 0 0 1px CanvasText;
`;

/** A native `<input type="range">`, restyled; keyboard, touch and screen readers work as native. */
export const RangeInput = styled.input`
  appearance: none;
  width: 100%;
  height: 2.75rem;
  margin: 0;
  background: transparent;
  cursor: pointer;

  &::-webkit-slider-runnable-track {
    ${trackCss}
  }

  &::-webkit-slider-thumb {
    appearance: none;
    margin-top: calc((${TRACK_HEIGHT} - ${THUMB_SIZE}) / 2);
    ${thumbCss}
  }

  &::-moz-range-track {
    ${trackCss}
  }

  &::-moz-range-thumb {
    ${thumbCss}
  }

  &:focus-visible {
    outline: 3px solid ${({ theme }) => theme.color.focusRing};
    outline-offset: 2px;
  }

  &:disabled {
    cursor: not-allowed;
    opacity: 0.55;
  }

  /*
   * Forced colours drop background images: the track (a gradient) vanished, leaving the thumb's ring alone. The
   * track is drawn in system colours instead, filled in Highlight up to the value.
   */
  ${({ theme }) => theme.media.forcedColors} {
    forced-color-adjust: none;

    &::-webkit-slider-runnable-track {
      ${forcedTrackCss}
    }

    &::-moz-range-track {
      ${forcedTrackCss}
    }

    &::-webkit-slider-thumb {
      ${forcedThumbCss}
    }

    &::-moz-range-thumb {
      ${forcedThumbCss}
    }

    &:focus-visible {
      outline-color: Highlight;
    }
  }
`;

export const SliderHeader = styled.div`
  display: flex;
  flex-wrap: wrap;
  align-items: baseline;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.sm};
`;

export const SliderValue = styled.span`
  font-size: ${({ theme }) => theme.fontSize.lg};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  font-variant-numeric: tabular-nums;
  color: ${({ theme }) => theme.color.text};
`;

export const SliderBounds = styled.div`
  display: flex;
  justify-content: space-between;
  font-size: ${({ theme }) => theme.fontSize.xs};
  color: ${({ theme }) => theme.color.muted};
  font-variant-numeric: tabular-nums;
`;
