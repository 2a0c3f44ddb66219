import { recommendInsuranceFramework } from '@firm/pricing';
import { describe, expect, it } from 'vitest';

import { initialFrameworkInputs } from '../stores/framework-store';

import { isMinimumProfessionalIndemnity } from './recommendation';

function atContractValue(contractValue: number) {
  const input = { ...initialFrameworkInputs, contractValue };
  const recommendation = recommendInsuranceFramework(input);
  return {
    limit: recommendation.professionalIndemnity,
    atLeast: isMinimumProfessionalIndemnity(input, recommendation),
  };
}

describe('isMinimumProfessionalIndemnity', () => {
  it('should call the limit a minimum ("at least £5m") for contract values under £5m only', () => {
    expect(atContractValue(500_000)).toEqual({ limit: 5_000_000, atLeast: true });
    expect(atContractValue(4_999_999)).toEqual({ limit: 5_000_000, atLeast: true });
    expect(atContractValue(5_000_000)).toEqual({ limit: 10_000_000, atLeast: false });
    expect(atContractValue(24_999_999)).toEqual({ limit: 10_000_000, atLeast: false });
    expect(atContractValue(25_000_000)).toEqual({ limit: 15_000_000, atLeast: false });
  });
});
