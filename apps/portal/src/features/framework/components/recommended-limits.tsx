import { formatPounds, type InsuranceFrameworkRecommendation } from '@firm/pricing';
import { styled } from 'styled-components';

export interface RecommendedLimitsProps {
  recommendation: InsuranceFrameworkRecommendation;
  /** The professional indemnity limit is a minimum ("at least"). */
  professionalIndemnityIsMinimum: boolean;
}

/** The three liability limits the framework recommends for the contract value. */
export function RecommendedLimits({
  recommendation,
  professionalIndemnityIsMinimum,
}: RecommendedLimitsProps) {
  const limits = [
    {
      id: 'pi',
      term: 'Professional indemnity (PI)',
      value: `${professionalIndemnityIsMinimum ? 'at least ' : ''}${formatPounds(recommendation.professionalIndemnity)}`,
    },
    {
      id: 'pl',
      term: 'Public liability (PL)',
      value: formatPounds(recommendation.publicLiability),
    },
    {
      id: 'el',
      term: 'Employers liability (EL)',
      value: formatPounds(recommendation.employersLiability),
    },
  ];
  return (
    <section aria-labelledby="recommended-limits-heading">
      <Heading id="recommended-limits-heading">Recommended limits</Heading>
      <Limits>
        {limits.map((limit) => (
          <Limit key={limit.id} data-limit={limit.id}>
            <dt>{limit.term}</dt>
            <dd>{limit.value}</dd>
          </Limit>
        ))}
      </Limits>
    </section>
  );
}

const Heading = styled.h2`
  margin: 0 0 ${({ theme }) => theme.space.md};
  font-size: ${({ theme }) => theme.fontSize.xl};
`;

const Limits = styled.dl`
  display: grid;
  gap: ${({ theme }) => theme.space.md};
  margin: 0;

  ${({ theme }) => theme.media.md} {
    grid-template-columns: repeat(3, minmax(0, 1fr));
  }
`;

const Limit = styled.div`
  padding: ${({ theme }) => theme.space.lg};
  border: 1px solid ${({ theme }) => theme.color.divider};
  border-top: 4px solid ${({ theme }) => theme.color.primary};
  border-radius: ${({ theme }) => theme.radius.md};
  background: ${({ theme }) => theme.color.surface};

  dt {
    font-size: ${({ theme }) => theme.fontSize.sm};
    color: ${({ theme }) => theme.color.muted};
  }

  dd {
    margin: ${({ theme }) => theme.space.xs} 0 0;
    font-size: ${({ theme }) => theme.fontSize.xl};
    font-weight: ${({ theme }) => theme.fontWeight.bold};
    font-variant-numeric: tabular-nums;
  }
`;
