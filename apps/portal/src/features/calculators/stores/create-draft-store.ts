import { create } from 'zustand';
import { persist } from 'zustand/middleware';

import { boundedMessage } from '@/lib/api-client';
import { newSubmissionKey } from '@/lib/submission-key';
import { tabStorage } from '@/lib/tab-storage';

import { invalidContactFields } from '../utils/contact';

/** The contact details sent with every calculator submission. */
export interface ContactDetails {
  name: string;
  telephone: string;
  email: string;
}

/**
 * Where the posting of the last estimate stands. `id` tells a stale answer from the current one; `key` is the
 * submission's `Idempotency-Key`, kept by Try again (absent from drafts saved before there were keys).
 */
export type Submission<B> =
  | { status: 'idle' }
  | { status: 'sending'; id: number; body: B; key: string }
  | {
      status: 'sent';
      id: number;
      body: B;
      reference: string;
      key?: string;
      /**
       * The version of the rate table the team's quote was made with (the API's answer): another than the page's
       * says the rates changed after the page was loaded, and the team's figures may differ from those shown.
       * Kept as the version, not as that verdict, so that a page loaded again with the new rates no longer says so.
       */
      quotedWith?: string;
    }
  | {
      status: 'failed';
      id: number;
      body: B;
      message: string;
      loggedOut?: boolean;
      /**
       * No answer came (the connection failed, the wait ran out, the page was reloaded): the team may have the
       * details after all. Absent when the API answered with a refusal.
       */
      unanswered?: boolean;
      key?: string;
    };

/** The last figures shown, with the inputs they were computed from. */
export interface Estimate<I, Q> {
  inputs: I;
  quote: Q;
}

/** A draft as it starts: the calculator's default inputs, the user's own contact details, no estimate. */
export interface FreshDraft<I, Q, B> {
  inputs: I;
  contact: null;
  estimate: Estimate<I, Q> | null;
  submission: Submission<B>;
}

export interface DraftState<I, Q, B> {
  /** Whose draft this is (`prefix/email`); another user or client starts from a fresh draft. */
  owner: string | null;
  inputs: I;
  /** `null` until the user edits a contact field: the logged-in user's details are shown instead. */
  contact: ContactDetails | null;
  estimate: Estimate<I, Q> | null;
  submission: Submission<B>;
  /** A fresh draft: what the screen shows while the draft held belongs to someone else (not saved). */
  initial: FreshDraft<I, Q, B>;
  /** Takes the draft for `owner`, starting afresh when it belonged to someone else. */
  claim: (owner: string) => void;
  setInput: <K extends keyof I>(key: K, value: I[K]) => void;
  setContact: (contact: ContactDetails) => void;
  setEstimate: (estimate: Estimate<I, Q>) => void;
  /** Marks `body` as being sent and returns the id of this attempt. */
  startSubmission: (body: B) => number;
  /** Records the outcome of attempt `id`; ignored when a newer attempt has started since. */
  finishSubmission: (
    id: number,
    outcome:
      | { reference: string; quotedWith?: string }
      | { message: string; loggedOut?: boolean; unanswered?: boolean },
  ) => void;
  reset: () => void;
  /** Whether `value` is a reference of the API's form for this calculator (`BW-2026-000123`). */
  isReference: (value: unknown) => value is string;
}

/**
 * The message kept for a submission that was still on its way when the page was reloaded or left for another page
 * (an address typed, a bookmark; found by a hostile run: coming back, the page said it had been reloaded).
 */
export const INTERRUPTED_MESSAGE =
  'The page was left or reloaded before the team confirmed that your details had arrived.';

let lastSubmissionId = 0;

/** How a calculator prices its inputs, which tells the draft store which stored inputs and estimates still hold. */
export interface DraftPricing<I, Q> {
  /** The calculator's quote (@firm/pricing), which throws on inputs it does not take. */
  quote: (inputs: I) => Q;
  /**
   * Throws when any input is out of its domain, also those the quote leaves unread (the loss-of-rent fields
   * while the toggle is off); the quote itself when absent.
   */
  check?: (inputs: I) => void;
}

/** How a calculator posts an estimate, which tells the draft store which stored submissions still hold. */
export interface DraftSubmission<I, Q, B> {
  /** The body Calculate posts for an estimate's inputs and figures and the contact details (`toSubmission`). */
  body: (inputs: I, contact: ContactDetails, quote: Q) => B;
  /** The contact details a stored body holds, read as they are (checked by the store). */
  contactOf: (body: Record<string, unknown>) => Record<keyof ContactDetails, unknown>;
  /** The kind of the API's references to this calculator's submissions: `BW` for `BW-2026-000123`. */
  referencePrefix: string;
}

/** What {@link createDraftStore} checks a draft read back from the tab with. */
export interface DraftOptions<I, Q, B> extends DraftPricing<I, Q> {
  submission: DraftSubmission<I, Q, B>;
}

/** A rate table's version as the API gives it (@firm/pricing's RATE_TABLE_VERSION), read back from the tab. */
const VERSION = /^[\x21-\x7E]{1,100}$/;

/** What `newSubmissionKey` makes: 128 random bits in hex. */
const SUBMISSION_KEY = /^[0-9a-f]{32}$/;

/**
 * Creates the draft store of one calculator: inputs, contact details, the last estimate and its
 * submission. Client state only, kept in sessionStorage so a draft survives navigating away and
 * back (and a reload) but not the end of the browser session. What is read back from the tab is checked
 * as if typed: a stored input the calculator does not take is its default again, an estimate that is not the
 * quote of its inputs is dropped, a submission is kept only if its body is the one Calculate posts for that
 * estimate, its key one this screen makes and its reference one the API gives, and a contact or submission of
 * another shape is forgotten (a draft altered in the tab's storage, or saved by an older screen, crashed the page,
 * left Calculate doing nothing, had Try again post other figures than those shown, or showed any text as the
 * reference).
 *
 * @param name - the sessionStorage key
 * @param initialInputs - the inputs of a fresh draft
 * @param options - the calculator's quote and submission body, to check stored inputs, estimates and
 *   submissions with
 */
export function createDraftStore<I extends object, Q, B>(
  name: string,
  initialInputs: I,
  options: DraftOptions<I, Q, B>,
) {
  const pricing: DraftPricing<I, Q> = options;
  const { referencePrefix } = options.submission;
  if (!/^[A-Z]+$/.test(referencePrefix)) throw new RangeError(`referencePrefix ${referencePrefix}`);
  // What nextReference (apps/api) makes: the kind, the year, the number padded to six digits (more once a
  // client's counter passes 999,999 in a year; at most 15, as no counter gets near).
  const reference = new RegExp(`^${referencePrefix}-\\d{4}-\\d{6,15}$`);
  // One object, never changed: what a draft of no one (or of another user) reads as.
  const initial: FreshDraft<I, Q, B> = {
    inputs: initialInputs,
    contact: null,
    estimate: null,
    submission: { status: 'idle' },
  };
  const fresh = () => ({ ...initial });

  return create<DraftState<I, Q, B>>()(
    persist(
      (set, get) => ({
        owner: null,
        ...fresh(),
        initial,
        claim: (owner) => {
          if (get().owner !== owner) set({ owner, ...fresh() });
        },
        setInput: (key, value) => set((state) => ({ inputs: { ...state.inputs, [key]: value } })),
        setContact: (contact) => set({ contact }),
        setEstimate: (estimate) => set({ estimate, submission: { status: 'idle' } }),
        startSubmission: (body) => {
          lastSubmissionId += 1;
          const id = lastSubmissionId;
          // Try again sends the failed attempt once more under its key: if that attempt was stored after all (its
          // answer lost to a dropped connection, a timeout or a reload), the API answers from it rather than
          // storing the quote and e-mailing the team twice. A new estimate is a new submission, with a new key.
          const previous = get().submission;
          const key =
            previous.status === 'failed' &&
            previous.key !== undefined &&
            JSON.stringify(previous.body) === JSON.stringify(body)
              ? previous.key
              : newSubmissionKey();
          set({ submission: { status: 'sending', id, body, key } });
          return id;
        },
        finishSubmission: (id, outcome) => {
          const current = get().submission;
          if (current.status !== 'sending' || current.id !== id) return;
          set({
            submission:
              'reference' in outcome
                ? {
                    status: 'sent',
                    id,
                    body: current.body,
                    reference: outcome.reference,
                    key: current.key,
                    ...(outcome.quotedWith === undefined ? {} : { quotedWith: outcome.quotedWith }),
                  }
                : {
                    status: 'failed',
                    id,
                    body: current.body,
                    message: outcome.message,
                    key: current.key,
                    ...(outcome.loggedOut === true ? { loggedOut: true } : {}),
                    ...(outcome.unanswered === true ? { unanswered: true } : {}),
                  },
          });
        },
        reset: () => set({ owner: null, ...fresh() }),
        isReference: (value): value is string => typeof value === 'string' && reference.test(value),
      }),
      {
        name,
        version: 1,
        storage: tabStorage(),
        partialize: ({ owner, inputs, contact, estimate, submission }) => ({
          owner,
          inputs,
          contact,
          estimate,
          // An answer cannot arrive after a reload: keep the estimate retryable instead.
          submission:
            submission.status === 'sending'
              ? {
                  status: 'failed' as const,
                  id: submission.id,
                  body: submission.body,
                  message: INTERRUPTED_MESSAGE,
                  unanswered: true,
                  key: submission.key,
                }
              : submission,
        }),
        merge: (persisted, current) => {
          const saved = (
            typeof persisted === 'object' && persisted !== null ? persisted : {}
          ) as Record<string, unknown>;
          const estimate = storedEstimate(saved.estimate, initialInputs, pricing);
          return {
            ...current,
            owner: typeof saved.owner === 'string' ? saved.owner : null,
            inputs: storedInputs(saved.inputs, initialInputs, pricing),
            contact: isContactDetails(saved.contact) ? saved.contact : null,
            estimate,
            // A submission is of the estimate shown: none without one.
            submission:
              estimate === null
                ? { status: 'idle' }
                : storedSubmission(saved.submission, estimate, options.submission, reference),
          };
        },
      },
    ),
  );
}

/** Keeps from `saved` only the keys of `defaults` whose value has the same type. */
function mergeInputs<I extends object>(defaults: I, saved: unknown): I {
  if (typeof saved !== 'object' || saved === null) return defaults;
  const merged: Record<string, unknown> = { ...(defaults as Record<string, unknown>) };
  for (const [key, value] of Object.entries(defaults)) {
    const candidate = (saved as Record<string, unknown>)[key];
    if (typeof candidate === typeof value) merged[key] = candidate;
  }
  return merged as I;
}

/** Whether the calculator takes every one of `inputs`. */
function accepted<I, Q>(inputs: I, { quote, check = quote }: DraftPricing<I, Q>): boolean {
  try {
    check(inputs);
    return true;
  } catch {
    return false;
  }
}

/**
 * The stored inputs the calculator still takes, each other one its default: a sum insured of £500,000.50 or a
 * build type "Castle" would have been shown as if chosen (or thrown while drawn) and refused by Calculate
 * without pointing at a field.
 */
function storedInputs<I extends object, Q>(
  saved: unknown,
  defaults: I,
  pricing: DraftPricing<I, Q>,
): I {
  const merged = mergeInputs(defaults, saved);
  if (accepted(merged, pricing)) return merged;
  let repaired = defaults;
  for (const key of Object.keys(defaults) as (keyof I)[]) {
    const candidate = { ...repaired, [key]: merged[key] };
    if (accepted(candidate, pricing)) repaired = candidate;
  }
  return repaired;
}

/**
 * A stored estimate when its inputs are all taken and its figures are their quote as this build computes it,
 * else `null`: the figures are not trusted from storage (they are shown and sent as the estimate).
 */
function storedEstimate<I extends object, Q>(
  saved: unknown,
  defaults: I,
  pricing: DraftPricing<I, Q>,
): Estimate<I, Q> | null {
  if (typeof saved !== 'object' || saved === null) return null;
  const { inputs: savedInputs, quote: savedQuote } = saved as Record<string, unknown>;
  if (typeof savedInputs !== 'object' || savedInputs === null) return null;
  const inputs = mergeInputs(defaults, savedInputs);
  // Every field stored as it is (no default put in for one), and nothing else.
  if (JSON.stringify(inputs) !== JSON.stringify(savedInputs) || !accepted(inputs, pricing)) {
    return null;
  }
  try {
    const quote = pricing.quote(inputs);
    return JSON.stringify(quote) === JSON.stringify(savedQuote) ? { inputs, quote } : null;
  } catch {
    return null;
  }
}

function isContactDetails(saved: unknown): saved is ContactDetails {
  if (typeof saved !== 'object' || saved === null) return false;
  const { name, telephone, email } = saved as Record<string, unknown>;
  return typeof name === 'string' && typeof telephone === 'string' && typeof email === 'string';
}

/**
 * A stored submission of the estimate shown, as this screen saves one, else idle. Its body must be the very body
 * Calculate posts for the estimate's inputs and figures, with contact details Calculate takes: Try again posts it
 * as it is (a body for £50m beside an estimate for £500,000 had the API store the £50m quote under the reference
 * then shown beside the £500,000 estimate). Its key must be one `newSubmissionKey` makes (one the browser cannot
 * send as a header left Try again doing nothing; a 100 KB one was refused as "did not reach our team"), and a
 * reference one the API gives (any text was shown as "Your reference: …"). A key is absent from drafts saved
 * before there were keys: Try again then posts under a new one.
 */
function storedSubmission<I, Q, B>(
  saved: unknown,
  estimate: Estimate<I, Q>,
  spec: DraftSubmission<I, Q, B>,
  referenceFormat: RegExp,
): Submission<B> {
  const idle = { status: 'idle' } as const;
  if (typeof saved !== 'object' || saved === null) return idle;
  const { status, id, body, key, reference, message, loggedOut, unanswered, quotedWith } =
    saved as Record<string, unknown>;
  if (status !== 'sent' && status !== 'failed') return idle;
  if (typeof id !== 'number') return idle;
  if (key !== undefined && !(typeof key === 'string' && SUBMISSION_KEY.test(key))) return idle;
  const checked = storedBody(body, estimate, spec);
  if (checked === null) return idle;
  const keyed = key === undefined ? {} : { key };
  if (status === 'sent') {
    return typeof reference === 'string' && referenceFormat.test(reference)
      ? {
          status,
          id,
          body: checked,
          reference,
          ...keyed,
          ...(typeof quotedWith === 'string' && VERSION.test(quotedWith) ? { quotedWith } : {}),
        }
      : idle;
  }
  // A submission still `sending` is saved as failed (an answer cannot arrive after a reload).
  if (typeof message !== 'string') return idle;
  return {
    status,
    id,
    body: checked,
    // No longer than the API's messages are shown: a stored one may have been written at any length.
    message: boundedMessage(message),
    ...keyed,
    ...(loggedOut === true ? { loggedOut: true } : {}),
    ...(unanswered === true ? { unanswered: true } : {}),
  };
}

/**
 * The body Calculate posts for `estimate` with the contact details `saved` holds, when `saved` is that body field
 * for field (and in the same order), else `null`.
 */
function storedBody<I, Q, B>(
  saved: unknown,
  estimate: Estimate<I, Q>,
  spec: DraftSubmission<I, Q, B>,
): B | null {
  if (typeof saved !== 'object' || saved === null || Array.isArray(saved)) return null;
  const { name, telephone, email } = spec.contactOf(saved as Record<string, unknown>);
  if (typeof name !== 'string' || typeof telephone !== 'string' || typeof email !== 'string') {
    return null;
  }
  const contact = { name, telephone, email };
  if (invalidContactFields(contact).length > 0) return null;
  try {
    const body = spec.body(estimate.inputs, contact, estimate.quote);
    return JSON.stringify(body) === JSON.stringify(saved) ? body : null;
  } catch {
    return null;
  }
}
