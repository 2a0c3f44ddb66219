import type { CarPropertyType, ContractorsAllRisksQuote } from '@firm/pricing';

import { paths } from '@/config/paths';
import { apiFetch } from '@/lib/api-client';
import { normaliseEmailAddress } from '@/lib/email-address';
import { normalisePhoneNumber } from '@/lib/phone-number';
import type { QuoteSubmissionResponse } from '@/types/api';

import type { ContactDetails } from '../stores/create-draft-store';

import { SUBMIT_TIMEOUT_MS } from './submit-timeout';

export interface ContractorsAllRisksInputs {
  propertyType: CarPropertyType;
  contractWorksValue: number;
}

/** The body of `POST /api/{client}/car`, field names as the API names them. */
export interface ContractorsAllRisksSubmission {
  propertyType: ContractorsAllRisksInputs['propertyType'];
  contractWorksValue: number;
  name: string;
  telephone: string;
  email: string;
  lowPremium: number;
  mediumPremium: number;
  highPremium: number;
}

export function toContractorsAllRisksSubmission(
  inputs: ContractorsAllRisksInputs,
  contact: ContactDetails,
  quote: ContractorsAllRisksQuote,
): ContractorsAllRisksSubmission {
  return {
    propertyType: inputs.propertyType,
    contractWorksValue: inputs.contractWorksValue,
    name: contact.name.trim(),
    // As the API stores it (its digits in ASCII), so the same number typed in other digits is the same submission.
    telephone: normalisePhoneNumber(contact.telephone).trim(),
    email: normaliseEmailAddress(contact.email),
    lowPremium: quote.low,
    mediumPremium: quote.medium,
    highPremium: quote.high,
  };
}

/** Sends a contractors all risks submission; the server recomputes and stores the quote. */
export function submitContractorsAllRisks(
  prefix: string,
  body: ContractorsAllRisksSubmission,
  key: string,
): Promise<QuoteSubmissionResponse<ContractorsAllRisksQuote>> {
  return apiFetch<QuoteSubmissionResponse<ContractorsAllRisksQuote>>(paths.api.car(prefix), {
    method: 'POST',
    json: body,
    // Try again sends the same key: a submission stored whose answer was lost is not stored twice.
    headers: { 'idempotency-key': key },
    signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
  });
}
