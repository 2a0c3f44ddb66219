import type { BuildingWarrantyQuote, BuildType, Stage } from '@firm/pricing';

import { paths } from '@/config/paths';
import { apiFetch } from '@/lib/api-client';
import { normaliseEmailAddress } from '@/lib/email-address';
import { normalisePhoneNumber } from '@/lib/phone-number';
import type { QuoteSubmissionResponse } from '@/types/api';

import type { ContactDetails } from '../stores/create-draft-store';

import { SUBMIT_TIMEOUT_MS } from './submit-timeout';

/** The calculator's inputs, named as @firm/pricing names them. */
export interface BuildingWarrantyInputs {
  buildType: BuildType;
  stage: Stage;
  units: number;
  sumInsured: number;
  gdv: number;
}

/** The body of `POST /api/{client}/warranty`, field names as the API names them. */
export interface BuildingWarrantySubmission {
  build_type: BuildingWarrantyInputs['buildType'];
  stageType: BuildingWarrantyInputs['stage'];
  units: number;
  build_value: number;
  GDV: number;
  name: string;
  telephone: string;
  email: string;
  buildCostValue: number;
  totalPercentage: number;
  estimateValue: number;
}

export function toBuildingWarrantySubmission(
  inputs: BuildingWarrantyInputs,
  contact: ContactDetails,
  quote: BuildingWarrantyQuote,
): BuildingWarrantySubmission {
  return {
    build_type: inputs.buildType,
    stageType: inputs.stage,
    units: inputs.units,
    build_value: inputs.sumInsured,
    GDV: inputs.gdv,
    name: contact.name.trim(),
    // As the API stores it (its digits in ASCII), so the same number typed in other digits is the same submission.
    telephone: normalisePhoneNumber(contact.telephone).trim(),
    email: normaliseEmailAddress(contact.email),
    buildCostValue: quote.rates.buildCost,
    totalPercentage: quote.totalPercentage,
    estimateValue: quote.estimate,
  };
}

/** Sends a building warranty submission; the server recomputes and stores the quote. */
export function submitBuildingWarranty(
  prefix: string,
  body: BuildingWarrantySubmission,
  key: string,
): Promise<QuoteSubmissionResponse<BuildingWarrantyQuote>> {
  return apiFetch<QuoteSubmissionResponse<BuildingWarrantyQuote>>(paths.api.warranty(prefix), {
    method: 'POST',
    json: body,
    // Try again sends the same key: a submission stored whose answer was lost is not stored twice.
    headers: { 'idempotency-key': key },
    signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
  });
}
