import {
  FRAMEWORK_LIMITS,
  recommendInsuranceFramework,
  type InsuranceFrameworkInput,
  type InsuranceFrameworkRecommendation,
} from '@firm/pricing';

/**
 * Whether the professional indemnity limit is the lowest band's, which the firm states as a minimum
 * ("at least"). Asked of the library itself (the smallest contract value's limit) so no band edge is
 * repeated here.
 */
export function isMinimumProfessionalIndemnity(
  input: InsuranceFrameworkInput,
  recommendation: InsuranceFrameworkRecommendation,
): boolean {
  const lowest = recommendInsuranceFramework({
    ...input,
    contractValue: FRAMEWORK_LIMITS.contractValue.min,
  }).professionalIndemnity;
  return recommendation.professionalIndemnity === lowest;
}
