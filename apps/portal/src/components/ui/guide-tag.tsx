import type { GuideTag as GuideTagName } from '@firm/pricing';
import { styled } from 'styled-components';

/**
 * How each of the insurance guide's four tags looks. Every tag differs by its text and its shape as
 * well as its colour, so the colour never carries the meaning alone (WCAG 1.4.1). The text colours
 * reach at least 4.5:1 on their backgrounds.
 */
export const GUIDE_TAG_STYLES = {
  'Property Developer': { shape: 'square', ink: '#1a4d8f', fill: '#e3eefc' },
  Contractor: { shape: 'triangle', ink: '#8a4500', fill: '#fdf0e1' },
  'Either or Joint Policy': { shape: 'diamond', ink: '#5b2a86', fill: '#f1e8fb' },
  'Both needed': { shape: 'circle', ink: '#1b6b3a', fill: '#e3f4ea' },
} as const satisfies Record<GuideTagName, { shape: Shape; ink: string; fill: string }>;

type Shape = 'square' | 'triangle' | 'diamond' | 'circle';

const CLIP_PATHS: Record<Shape, string> = {
  square: 'inset(0)',
  triangle: 'polygon(50% 0, 100% 100%, 0 100%)',
  diamond: 'polygon(50% 0, 100% 50%, 50% 100%, 0 50%)',
  circle: 'circle(50%)',
};

export interface GuideTagProps {
  tag: GuideTagName;
}

/** One of the guide's four tags (who buys an insurance): a coloured label with its own shape. */
export function GuideTag({ tag }: GuideTagProps) {
  const style = GUIDE_TAG_STYLES[tag];
  return (
    <Tag $ink={style.ink} $fill={style.fill} data-tag={tag} data-shape={style.shape}>
      <Mark aria-hidden="true" $clip={CLIP_PATHS[style.shape]} />
      {tag}
    </Tag>
  );
}

const Tag = styled.span<{ $ink: string; $fill: string }>`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  padding: ${({ theme }) => `${theme.space.xxs} ${theme.space.sm}`};
  border: 1px solid ${({ $ink }) => $ink};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ $fill }) => $fill};
  color: ${({ $ink }) => $ink};
  font-size: ${({ theme }) => theme.fontSize.sm};
  font-weight: ${({ theme }) => theme.fontWeight.medium};
  line-height: ${({ theme }) => theme.lineHeight.tight};

  @media (forced-colors: active) {
    border-color: CanvasText;
  }
`;

const Mark = styled.span<{ $clip: string }>`
  flex: none;
  width: 0.7em;
  height: 0.7em;
  background: currentColor;
  clip-path: ${({ $clip }) => $clip};

  @media (forced-colors: active) {
    background: CanvasText;
  }
`;
