import { styled } from 'styled-components';

import { containMarksCss } from '../contained-marks';

export const StyledCard = styled.article`
  position: relative;
  display: flex;
  flex-direction: column;
  overflow: hidden;
  height: 100%;
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-radius: ${({ theme }) => theme.radius.lg};
  background: ${({ theme }) => theme.color.surface};
  box-shadow: ${({ theme }) => theme.shadow.sm};
  transition: box-shadow 150ms;

  &:hover {
    box-shadow: ${({ theme }) => theme.shadow.md};
  }

  /*
   * The title link covers the card, so where :has() is supported its keyboard focus ring is drawn
   * around the whole card instead of the title text (elsewhere the link keeps its own ring).
   */
  @supports selector(:has(*)) {
    &:has(a:focus-visible) {
      outline: 3px solid ${({ theme }) => theme.color.focusRing};
      outline-offset: 2px;
    }

    & a:focus-visible {
      outline: none;
    }
  }

  ${({ theme }) => theme.media.reducedMotion} {
    transition: none;
  }
`;

export const CardImage = styled.img`
  display: block;
  width: 100%;
  aspect-ratio: 16 / 9;
  object-fit: cover;
  background: ${({ theme }) => theme.color.background};
`;

export const CardBody = styled.div`
  display: flex;
  flex-direction: column;
  gap: ${({ theme }) => theme.space.sm};
  padding: ${({ theme }) => theme.space.lg};
`;

export const CardTitle = styled.h3`
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.lg};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  line-height: ${({ theme }) => theme.lineHeight.tight};
  /* A title of stacked combining marks stays on the title (the card clips only at its own edges). */
  ${containMarksCss}

  a {
    color: ${({ theme }) => theme.color.text};
    text-decoration: none;

    /* Stretch the link over the whole card: the card is one click target with one accessible name. */
    &::after {
      content: '';
      position: absolute;
      inset: 0;
    }

    &:hover {
      text-decoration: underline;
    }
  }
`;

export const CardText = styled.p`
  display: -webkit-box;
  margin: 0;
  overflow: hidden;
  -webkit-box-orient: vertical;
  -webkit-line-clamp: 3;
  line-clamp: 3;
  color: ${({ theme }) => theme.color.muted};
  font-size: ${({ theme }) => theme.fontSize.sm};
`;
