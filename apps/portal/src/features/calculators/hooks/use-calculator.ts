import { PricingInputError } from '@firm/pricing';
import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';

import { useClient } from '@/hooks/use-client';
import { useRefusedAmounts } from '@/hooks/use-refused-amounts';
import { focusFirstInDocumentOrder } from '@/lib/focus-first';
import type { QuoteSubmissionResponse } from '@/types/api';

import { contactFieldId } from '../components/contact-fields';
import { rememberedTelephone, useContactPrefillStore } from '../stores/contact-prefill-store';
import type { ContactDetails, DraftState, Submission } from '../stores/create-draft-store';
import {
  CONTACT_FIELDS,
  contactFromUser,
  contactProblem,
  invalidContactFields,
  type ContactField,
} from '../utils/contact';

import { useQuoteSubmission } from './use-quote-submission';

export interface CalculatorOptions<I, Q, B> {
  store: UseBoundStore<StoreApi<DraftState<I, Q, B>>>;
  /** Prefix of the form's input ids. */
  idPrefix: string;
  /** Prices the inputs with @firm/pricing, in the browser. */
  quote: (inputs: I) => Q;
  /** The submission body for the API. */
  toSubmission: (inputs: I, contact: ContactDetails, quote: Q) => B;
  /** The endpoint's fetcher. */
  submit: (prefix: string, body: B, key: string) => Promise<QuoteSubmissionResponse<unknown>>;
  /** The calculator's name in the activity log. */
  activityItem: string;
}

/** What the calculator page (CalculatorLayout) needs of useCalculator's result, whatever the calculator. */
export interface CalculatorForm {
  contact: ContactDetails;
  setContact: (contact: ContactDetails) => void;
  /** The contact fields to show as missing or mistyped (after a Calculate without them). */
  invalidContactFields: readonly ContactField[];
  /** A problem with the inputs themselves (not with the contact fields). */
  inputError: string | null;
  submission: Submission<unknown>;
  /** The inputs have changed since the estimate. */
  stale: boolean;
  /** An amount field shows a typed amount it refused: the estimate is for the amount last accepted. */
  amountRefused: boolean;
  /** The team has this estimate, but the contact details have been changed since they were sent. */
  contactChanged: boolean;
  calculate: () => void;
  /** Try again after a failed post: Calculate, which re-sends an unchanged body under its key. */
  retry: () => void;
  estimateRef: RefObject<HTMLElement | null>;
}

/**
 * The behaviour every calculator shares: the draft (inputs, contact details prefilled from the
 * logged-in user, last estimate), Calculate with its contact check, the post and its retry.
 */
export function useCalculator<I extends object, Q, B>({
  store,
  idPrefix,
  quote,
  toSubmission,
  submit,
  activityItem,
}: CalculatorOptions<I, Q, B>) {
  const { prefix, client } = useClient();
  const owner = `${prefix}/${client.email}`;

  // Before paint: a draft left in this tab by another user or client is emptied. Until then it is not rendered
  // either (the first render reads a fresh draft in its place): their contact details never reach the page.
  useLayoutEffect(() => store.getState().claim(owner), [store, owner]);

  const { inputs, savedContact, estimate, submission, setInput, setContact } = store(
    useShallow((state) => {
      const draft = state.owner === owner ? state : state.initial;
      return {
        inputs: draft.inputs,
        savedContact: draft.contact,
        estimate: draft.estimate,
        submission: draft.submission,
        setInput: state.setInput,
        setContact: state.setContact,
      };
    }),
  );
  // The telephone last sent to the team from any calculator, in place of the login's (found by the twenty-sixth
  // session: a login phone that is no phone number, corrected in one calculator, was prefilled again by the others).
  const sentTelephone = useContactPrefillStore((state) => rememberedTelephone(state, owner));
  const prefill = contactFromUser(client, sentTelephone);
  const contact = savedContact ?? prefill;

  const [showMissing, setShowMissing] = useState(false);
  const [inputError, setInputError] = useState<string | null>(null);
  const estimateRef = useRef<HTMLElement>(null);
  const send = useQuoteSubmission(store, submit, prefix, activityItem);
  const { anyRefused, onAmountRefused } = useRefusedAmounts<string & keyof I>();

  /**
   * Posts `body` with `details`; once the team has it (the API answered with a reference), its telephone is what
   * every calculator prefills next for this user, while its own contact fields are not edited. This calculator
   * keeps the details it sent: found by the twenty-seventh session's probe, an estimate sent with the login's
   * phone, visited again after another calculator sent a new number, showed that number and said "You have changed
   * your contact details since they were sent", to a user who had changed nothing there.
   */
  const sendAndRemember = useCallback(
    async (body: B, details: ContactDetails) => {
      await send(body);
      const state = store.getState();
      const outcome = state.submission;
      if (outcome.status === 'sent' && outcome.body === body) {
        if (state.owner === owner && state.contact === null) state.setContact(details);
        useContactPrefillStore.getState().remember(owner, details.telephone);
      }
    },
    [send, store, owner],
  );

  const calculate = useCallback(() => {
    // Read the store rather than this render: a typed amount committed on blur lands just before.
    const { inputs: current, contact: edited } = store.getState();
    const details =
      edited ??
      contactFromUser(client, rememberedTelephone(useContactPrefillStore.getState(), owner));
    const invalid = invalidContactFields(details);
    // A typed amount the field refused (it says why, and keeps its last good value): not calculated with that
    // value as if nothing were wrong. Focus goes to the first field to fix, in the form's order.
    const refused = refusedInputs(idPrefix);
    if (invalid.length > 0 || refused.length > 0) {
      setShowMissing(invalid.length > 0);
      focusFirstInDocumentOrder([
        ...refused,
        ...invalid.map((field) => document.getElementById(contactFieldId(idPrefix, field))),
      ]);
      return;
    }
    setShowMissing(false);

    let figures: Q;
    try {
      figures = quote(current);
    } catch (error) {
      if (!(error instanceof PricingInputError)) throw error;
      setInputError(error.issues.map((issue) => issue.message).join(' '));
      return;
    }
    setInputError(null);
    const body = toSubmission(current, details, figures);
    // The same estimate for the same person, already with the team (a second press of Enter once the first was
    // answered): shown again, not stored and e-mailed a second time under a new reference.
    const last = store.getState().submission;
    const same = last.status !== 'idle' && JSON.stringify(last.body) === JSON.stringify(body);
    if (same && (last.status === 'sent' || last.status === 'sending')) {
      revealEstimate(estimateRef.current);
      return;
    }
    // The same estimate whose post failed (its answer lost, or the page reloaded while it was on its way):
    // Calculate is Try again, under the same key, so a post the API stored after all is not stored and mailed
    // a second time under a new reference.
    if (same && last.status === 'failed') {
      revealEstimate(estimateRef.current);
      void sendAndRemember(body, details);
      return;
    }
    store.getState().setEstimate({ inputs: current, quote: figures });
    revealEstimate(estimateRef.current);
    void sendAndRemember(body, details);
  }, [store, client, owner, idPrefix, quote, toSubmission, sendAndRemember]);

  // Found by the eighteenth session's portal probe: Try again posted the failed body as it was, so a telephone (or
  // name, or e-mail) corrected since went unsent, under the old key, while the screen showed the new one beside
  // "Our team has your details" and the reference. Try again is Calculate: with nothing changed it posts the same
  // body under the same key (a post the API stored after all is not stored twice); with the figures or contact
  // details changed, it checks them and posts what the form shows, as a new submission under a new key.
  const retry = useCallback(() => {
    if (store.getState().submission.status === 'failed') calculate();
  }, [store, calculate]);

  const stale = estimate !== null && !sameInputs(estimate.inputs, inputs);
  // Left alone by the eighteenth session's review: once the team had an estimate, contact details edited after it
  // sat beside "Our team has your details" as if they were the ones sent. Calculate sends the new ones (a new
  // body, so a new submission under a new key).
  const contactChanged =
    submission.status === 'sent' &&
    estimate !== null &&
    !stale &&
    JSON.stringify(toSubmission(estimate.inputs, contact, estimate.quote)) !==
      JSON.stringify(submission.body);

  return {
    inputs,
    setInput,
    contact,
    setContact,
    // A prefilled telephone that is no phone number (given at login before the phone rule) is flagged as the form
    // is shown, not only at Calculate; focus stays where it is. Once the user types in the field, it is checked
    // at Calculate, as every field is.
    invalidContactFields: showMissing
      ? invalidContactFields(contact)
      : prefilledTelephoneIsWrong(contact, prefill)
        ? (['telephone'] as const)
        : [],
    estimate,
    stale,
    amountRefused: anyRefused,
    contactChanged,
    /** For each amount field's `onProblemChange`. */
    onAmountRefused,
    submission,
    inputError,
    calculate,
    retry,
    estimateRef,
  };
}

/** Whether the telephone shown is the prefilled one, and is not one the API takes (blank aside). */
function prefilledTelephoneIsWrong(contact: ContactDetails, prefill: ContactDetails): boolean {
  if (contact.telephone !== prefill.telephone) return false;
  const problem = contactProblem(contact, 'telephone');
  return problem !== undefined && problem !== 'missing';
}

/**
 * The form's inputs marked invalid by themselves (a typed amount the field refused), other than the contact
 * fields, whose marks Calculate sets.
 */
function refusedInputs(idPrefix: string): HTMLElement[] {
  const form = document.getElementById(contactFieldId(idPrefix, 'name'))?.closest('form');
  if (!form) return [];
  const contactIds = new Set(CONTACT_FIELDS.map((field) => contactFieldId(idPrefix, field)));
  return [...form.querySelectorAll<HTMLElement>('[aria-invalid="true"]')].filter(
    (element) => !contactIds.has(element.id),
  );
}

/** Brings the estimate into view on small screens, where it sits below the form. */
function revealEstimate(element: HTMLElement | null) {
  if (!element || typeof element.scrollIntoView !== 'function') return;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false;
  element.scrollIntoView({ block: 'nearest', behavior: reduceMotion ? 'auto' : 'smooth' });
}

function sameInputs<I extends object>(a: I, b: I): boolean {
  const keys = Object.keys(a) as (keyof I)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}
