import type { BtrTermMonths, BtrWarrantyInput, BtrWarrantyQuote, Stage } from '@firm/pricing';

import { paths } from '@/config/paths';
import { apiFetch } from '@/lib/api-client';
import { normaliseEmailAddress } from '@/lib/email-address';
import { normalisePhoneNumber } from '@/lib/phone-number';
import type { QuoteSubmissionResponse } from '@/types/api';

import type { ContactDetails } from '../stores/create-draft-store';

import { SUBMIT_TIMEOUT_MS } from './submit-timeout';

/** The calculator's inputs; the loss-of-rent fields are kept while the toggle is off. */
export interface BtrWarrantyInputs {
  stage: Stage;
  units: number;
  sumInsured: number;
  gdv: number;
  includeLossOfRent: boolean;
  anticipatedRentalIncome: number;
  termMonths: BtrTermMonths;
  programmeMonths: number;
}

/** The body of `POST /api/{client}/btr`, field names as the API names them. */
export interface BtrWarrantySubmission {
  stage: BtrWarrantyInputs['stage'];
  stageValue: number;
  units: number;
  sum_insured: number;
  GDV: number;
  includeRentCoverLoss: boolean;
  anticipatedRentalIncome?: number;
  term?: BtrWarrantyInputs['termMonths'];
  programmeMonths?: number;
  name: string;
  email: string;
  contact_number: string;
  subTotal: number;
  ipt: number;
  total: number;
  est: number;
}

/** The argument of `quoteBtrWarranty` for these inputs. */
export function toBtrQuoteInput(inputs: BtrWarrantyInputs): BtrWarrantyInput {
  const { stage, units, sumInsured, gdv } = inputs;
  if (!inputs.includeLossOfRent) return { stage, units, sumInsured, gdv };
  return {
    stage,
    units,
    sumInsured,
    gdv,
    lossOfRent: {
      anticipatedRentalIncome: inputs.anticipatedRentalIncome,
      termMonths: inputs.termMonths,
      programmeMonths: inputs.programmeMonths,
    },
  };
}

export function toBtrWarrantySubmission(
  inputs: BtrWarrantyInputs,
  contact: ContactDetails,
  quote: BtrWarrantyQuote,
): BtrWarrantySubmission {
  return {
    stage: inputs.stage,
    stageValue: quote.rates.stage,
    units: inputs.units,
    sum_insured: inputs.sumInsured,
    GDV: inputs.gdv,
    includeRentCoverLoss: inputs.includeLossOfRent,
    ...(inputs.includeLossOfRent
      ? {
          anticipatedRentalIncome: inputs.anticipatedRentalIncome,
          term: inputs.termMonths,
          programmeMonths: inputs.programmeMonths,
        }
      : {}),
    name: contact.name.trim(),
    email: normaliseEmailAddress(contact.email),
    // As the API stores it (its digits in ASCII), so the same number typed in other digits is the same submission.
    contact_number: normalisePhoneNumber(contact.telephone).trim(),
    subTotal: quote.subTotal,
    ipt: quote.ipt,
    total: quote.total,
    est: quote.total,
  };
}

/** Sends a BTR warranty submission; the server recomputes and stores the quote. */
export function submitBtrWarranty(
  prefix: string,
  body: BtrWarrantySubmission,
  key: string,
): Promise<QuoteSubmissionResponse<BtrWarrantyQuote>> {
  return apiFetch<QuoteSubmissionResponse<BtrWarrantyQuote>>(paths.api.btr(prefix), {
    method: 'POST',
    json: body,
    // Try again sends the same key: a submission stored whose answer was lost is not stored twice.
    headers: { 'idempotency-key': key },
    signal: AbortSignal.timeout(SUBMIT_TIMEOUT_MS),
  });
}
