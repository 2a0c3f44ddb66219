import { styled } from 'styled-components';

export interface HeadlineFigureProps {
  label: string;
  /** The amount, already formatted (`£11,800`). */
  value: string;
}

/** The figure the user came for, large. */
export function HeadlineFigure({ label, value }: HeadlineFigureProps) {
  return (
    <Figure>
      <span>{label}</span>
      <Value>{value}</Value>
    </Figure>
  );
}

const Figure = styled.p`
  display: grid;
  gap: ${({ theme }) => theme.space.xxs};
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.sm};
  color: ${({ theme }) => theme.color.muted};
`;

const Value = styled.span`
  font-size: ${({ theme }) => theme.fontSize.xxxl};
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  line-height: ${({ theme }) => theme.lineHeight.tight};
  color: ${({ theme }) => theme.color.text};
  font-variant-numeric: tabular-nums;
`;
