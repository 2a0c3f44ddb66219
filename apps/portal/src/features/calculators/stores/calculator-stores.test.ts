import { afterEach, describe, expect, it } from 'vitest';

import { UNREACHABLE_MESSAGE } from '@/lib/errors';

import { toBtrWarrantySubmission } from '../api/submit-btr-warranty';
import { toBuildingWarrantySubmission } from '../api/submit-building-warranty';
import { toContractorsAllRisksSubmission } from '../api/submit-contractors-all-risks';

import {
  initialBtrWarrantyInputs,
  quoteBtrWarrantyInputs,
  useBtrWarrantyStore,
} from './btr-warranty-store';
import {
  initialBuildingWarrantyInputs,
  quoteBuildingWarrantyInputs,
  useBuildingWarrantyStore,
} from './building-warranty-store';
import {
  initialContractorsAllRisksInputs,
  quoteContractorsAllRisksInputs,
  useContractorsAllRisksStore,
} from './contractors-all-risks-store';
import type { ContactDetails } from './create-draft-store';

const owner = 'demo/ada@example.com';
/** The logged-in user's details, as Calculate sends them while no contact field was edited. */
const ada: ContactDetails = {
  name: 'Ada Lovelace',
  telephone: '020 7946 0000',
  email: 'ada@example.com',
};

/** Each calculator's draft, and the amount a body is altered to (£50m; the most a BTR warranty takes). */
const calculators = [
  {
    name: 'calculator:building-warranty',
    prefix: 'BW',
    other: 'CAR',
    store: useBuildingWarrantyStore,
    draft: () => {
      const inputs = { ...initialBuildingWarrantyInputs, sumInsured: 500_000 };
      const quote = quoteBuildingWarrantyInputs(inputs);
      return { inputs, quote, body: toBuildingWarrantySubmission(inputs, ada, quote) };
    },
    altered: { build_value: 50_000_000 },
  },
  {
    name: 'calculator:btr-warranty',
    prefix: 'BTR',
    other: 'BW',
    store: useBtrWarrantyStore,
    draft: () => {
      const inputs = { ...initialBtrWarrantyInputs, includeLossOfRent: true };
      const quote = quoteBtrWarrantyInputs(inputs);
      return { inputs, quote, body: toBtrWarrantySubmission(inputs, ada, quote) };
    },
    altered: { sum_insured: 350_000_000 },
  },
  {
    name: 'calculator:contractors-all-risks',
    prefix: 'CAR',
    other: 'BTR',
    store: useContractorsAllRisksStore,
    draft: () => {
      const inputs = { ...initialContractorsAllRisksInputs, contractWorksValue: 500_000 };
      const quote = quoteContractorsAllRisksInputs(inputs);
      return { inputs, quote, body: toContractorsAllRisksSubmission(inputs, ada, quote) };
    },
    altered: { contractWorksValue: 50_000_000 },
  },
] as const;

afterEach(() => {
  for (const { store } of calculators) store.getState().reset();
  sessionStorage.clear();
});

// Found by the seventeenth session's portal probe, editing `calculator:building-warranty` in the tab's storage:
// Try again posted a stored body for £50m beside the £500,000 estimate shown, any text was shown as the
// reference, and a key the browser cannot send left Try again doing nothing.
describe.each(calculators)('the $name draft read back from the tab', (calculator) => {
  const { name, prefix, store } = calculator;

  /** A draft whose post got no answer (or was answered with `reference`), saved by the store itself. */
  function posted(reference?: string) {
    const { inputs, quote, body } = calculator.draft();
    // Typed as the store's own: each calculator's store has its own inputs, quote and body.
    const state = store.getState() as unknown as {
      claim: (owner: string) => void;
      setEstimate: (estimate: { inputs: typeof inputs; quote: typeof quote }) => void;
      startSubmission: (body: unknown) => number;
      finishSubmission: (id: number, outcome: object) => void;
    };
    state.claim(owner);
    state.setEstimate({ inputs, quote });
    const id = state.startSubmission(body);
    state.finishSubmission(
      id,
      reference === undefined ? { message: UNREACHABLE_MESSAGE, unanswered: true } : { reference },
    );
    return store.getState();
  }

  /** Rehydrates the store from the saved draft with its submission changed by `alter`. */
  async function reloadedWith(alter: (submission: Record<string, unknown>) => object) {
    const saved = JSON.parse(sessionStorage.getItem(name) ?? 'null') as {
      state: { submission: Record<string, unknown> };
    };
    saved.state.submission = alter(saved.state.submission) as Record<string, unknown>;
    sessionStorage.setItem(name, JSON.stringify(saved));
    await store.persist.rehydrate();
    return store.getState();
  }

  it('should keep a failed submission and a sent reference of its own', async () => {
    const failed = posted();
    expect(failed.submission).toMatchObject({ status: 'failed', unanswered: true });
    expect((await reloadedWith((submission) => submission)).submission).toEqual(failed.submission);

    const sent = posted(`${prefix}-2026-000123`);
    const reloaded = await reloadedWith((submission) => submission);
    expect(reloaded.submission).toEqual(sent.submission);
    expect(reloaded.estimate).toEqual(sent.estimate);
  });

  describe.each([
    [
      'a body for another amount',
      (s: Record<string, unknown>) => ({
        ...s,
        body: { ...(s.body as object), ...calculator.altered },
      }),
    ],
    [
      'a body with no name',
      (s: Record<string, unknown>) => ({ ...s, body: { ...(s.body as object), name: '' } }),
    ],
    [
      'a key of non-Latin-1 characters',
      (s: Record<string, unknown>) => ({ ...s, key: 'ключ'.repeat(8) }),
    ],
    ['a 100 KB key', (s: Record<string, unknown>) => ({ ...s, key: 'a'.repeat(100_000) })],
  ])('given a saved submission with %s', (_, alter) => {
    it('should forget the submission, keeping the checked inputs and estimate', async () => {
      for (const reference of [undefined, `${prefix}-2026-000123`]) {
        const before = posted(reference);
        const reloaded = await reloadedWith(alter);
        expect(reloaded.submission).toEqual({ status: 'idle' });
        expect(reloaded.estimate).toEqual(before.estimate);
        expect(reloaded.inputs).toEqual(before.inputs);
        expect(reloaded.owner).toBe(owner);
      }
    });
  });

  it('should forget a sent reference the API does not give for this calculator', async () => {
    for (const reference of [
      `${prefix}-2026-999999 — your policy is bound, pay £5,800 to sort code 00-00-00`,
      `${calculator.other}-2026-000123`,
      'Your policy is bound',
    ]) {
      const before = posted(`${prefix}-2026-000123`);
      const reloaded = await reloadedWith((submission) => ({ ...submission, reference }));
      expect(reloaded.submission, reference).toEqual({ status: 'idle' });
      expect(reloaded.estimate).toEqual(before.estimate);
    }
  });
});
