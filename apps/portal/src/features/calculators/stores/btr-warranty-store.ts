import { BTR_LIMITS, BTR_TERMS, STAGES } from '@firm/pricing';
import type { BtrWarrantyQuote } from '@firm/pricing';

import type { BtrWarrantyInputs, BtrWarrantySubmission } from '../api/submit-btr-warranty';

import { createDraftStore } from './create-draft-store';

export const initialBtrWarrantyInputs: BtrWarrantyInputs = {
  stage: STAGES[0],
  units: BTR_LIMITS.units.default,
  sumInsured: BTR_LIMITS.sumInsured.default,
  gdv: BTR_LIMITS.gdv.default,
  includeLossOfRent: false,
  anticipatedRentalIncome: BTR_LIMITS.anticipatedRentalIncome.default,
  termMonths: BTR_TERMS[0],
  programmeMonths: BTR_LIMITS.programmeMonths.default,
};

/** The BTR warranty + loss of rent calculator's draft. */
export const useBtrWarrantyStore = createDraftStore<
  BtrWarrantyInputs,
  BtrWarrantyQuote,
  BtrWarrantySubmission
>('calculator:btr-warranty', initialBtrWarrantyInputs);
