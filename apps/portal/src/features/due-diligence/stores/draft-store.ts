import { FRAMEWORK_LIMITS } from '@firm/pricing';
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

/**
 * The form's text and amounts (not the file): they survive leaving the page and coming back, a reload, and a
 * session that ends mid-form (logging in again is a fresh page load).
 */
export interface DueDiligenceDraft {
  projectName: string;
  projectAddress: string;
  cityAndPostcode: string;
  projectDescription: string;
  buildCost: number;
  gdv: number;
  loanAmount: number;
}

/** The money sliders' ranges, from @firm/pricing (500k–50m, step 50k): no number is repeated here. */
export const DUE_DILIGENCE_LIMITS = {
  buildCost: FRAMEWORK_LIMITS.contractValue,
  gdv: FRAMEWORK_LIMITS.gdv,
  loanAmount: FRAMEWORK_LIMITS.contractValue,
} as const;

export const EMPTY_DRAFT: DueDiligenceDraft = {
  projectName: '',
  projectAddress: '',
  cityAndPostcode: '',
  projectDescription: '',
  buildCost: DUE_DILIGENCE_LIMITS.buildCost.default,
  gdv: DUE_DILIGENCE_LIMITS.gdv.default,
  loanAmount: DUE_DILIGENCE_LIMITS.loanAmount.default,
};

interface DraftStore {
  /** Whose draft this is (`prefix/email`); another user or client starts from an empty form. */
  owner: string | null;
  draft: DueDiligenceDraft;
  /** Takes the draft for `owner`, emptying it when it belonged to someone else. */
  claim: (owner: string) => void;
  update: (change: Partial<DueDiligenceDraft>) => void;
  clear: () => void;
}

/** Kept in sessionStorage, as the calculators' drafts are: this tab only, gone when the browser session ends. */
export const useDueDiligenceDraft = create<DraftStore>()(
  persist(
    (set, get) => ({
      owner: null,
      draft: EMPTY_DRAFT,
      claim: (owner) => {
        if (get().owner !== owner) set({ owner, draft: EMPTY_DRAFT });
      },
      update: (change) => set((state) => ({ draft: { ...state.draft, ...change } })),
      clear: () => set({ draft: EMPTY_DRAFT }),
    }),
    {
      name: 'due-diligence:draft',
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ owner, draft }) => ({ owner, draft }),
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<Pick<DraftStore, 'owner' | 'draft'>>;
        return {
          ...current,
          owner: typeof saved.owner === 'string' ? saved.owner : null,
          draft: mergeDraft(saved.draft),
        };
      },
    },
  ),
);

/** Keeps from a stored draft only the fields that still exist, with their types (anything else: the default). */
function mergeDraft(saved: unknown): DueDiligenceDraft {
  if (typeof saved !== 'object' || saved === null) return EMPTY_DRAFT;
  const merged: Record<string, unknown> = { ...EMPTY_DRAFT };
  for (const [key, value] of Object.entries(EMPTY_DRAFT)) {
    const candidate = (saved as Record<string, unknown>)[key];
    if (typeof candidate === typeof value) merged[key] = candidate;
  }
  return merged as unknown as DueDiligenceDraft;
}
