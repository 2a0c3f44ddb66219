import { BTR_LIMITS, BTR_TERMS, quoteBtrWarranty, STAGES } from '@firm/pricing';
import type { BtrWarrantyQuote } from '@firm/pricing';

import {
  toBtrQuoteInput,
  toBtrWarrantySubmission,
  type BtrWarrantyInputs,
  type BtrWarrantySubmission,
} from '../api/submit-btr-warranty';

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

/** The BTR warranty (and loss of rent, when included) quote of the calculator's inputs. */
export const quoteBtrWarrantyInputs = (inputs: BtrWarrantyInputs) =>
  quoteBtrWarranty(toBtrQuoteInput(inputs));

/** The BTR warranty + loss of rent calculator's draft. */
export const useBtrWarrantyStore = createDraftStore<
  BtrWarrantyInputs,
  BtrWarrantyQuote,
  BtrWarrantySubmission
>('calculator:btr-warranty', initialBtrWarrantyInputs, {
  quote: quoteBtrWarrantyInputs,
  // The loss-of-rent fields are kept while the toggle is off: checked as if it were on.
  check: (inputs) => {
    if (typeof inputs.includeLossOfRent !== 'boolean') throw new TypeError('includeLossOfRent');
    quoteBtrWarrantyInputs({ ...inputs, includeLossOfRent: true });
  },
  submission: {
    body: toBtrWarrantySubmission,
    contactOf: ({ name, contact_number, email }) => ({ name, telephone: contact_number, email }),
    referencePrefix: 'BTR',
  },
});
