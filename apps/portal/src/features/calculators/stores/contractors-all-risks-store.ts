import { CAR_LIMITS, CAR_PROPERTY_TYPES, quoteContractorsAllRisks } from '@firm/pricing';
import type { ContractorsAllRisksQuote } from '@firm/pricing';

import {
  toContractorsAllRisksSubmission,
  type ContractorsAllRisksInputs,
  type ContractorsAllRisksSubmission,
} from '../api/submit-contractors-all-risks';

import { createDraftStore } from './create-draft-store';

export const initialContractorsAllRisksInputs: ContractorsAllRisksInputs = {
  propertyType: CAR_PROPERTY_TYPES[0],
  contractWorksValue: CAR_LIMITS.contractWorksValue.default,
};

/** The contractors all risks quote of the calculator's inputs. */
export const quoteContractorsAllRisksInputs = ({
  propertyType,
  contractWorksValue,
}: ContractorsAllRisksInputs) => quoteContractorsAllRisks({ propertyType, contractWorksValue });

/** The contractors all risks calculator's draft. */
export const useContractorsAllRisksStore = createDraftStore<
  ContractorsAllRisksInputs,
  ContractorsAllRisksQuote,
  ContractorsAllRisksSubmission
>('calculator:contractors-all-risks', initialContractorsAllRisksInputs, {
  quote: quoteContractorsAllRisksInputs,
  submission: {
    body: toContractorsAllRisksSubmission,
    contactOf: ({ name, telephone, email }) => ({ name, telephone, email }),
    referencePrefix: 'CAR',
  },
});
