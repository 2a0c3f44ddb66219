import { FRAMEWORK_LIMITS } from '@firm/pricing';
import { create } from 'zustand';

/** The form's text and amounts (not the file): they survive leaving the page and coming back. */
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
  draft: DueDiligenceDraft;
  update: (change: Partial<DueDiligenceDraft>) => void;
  clear: () => void;
}

export const useDueDiligenceDraft = create<DraftStore>()((set) => ({
  draft: EMPTY_DRAFT,
  update: (change) => set((state) => ({ draft: { ...state.draft, ...change } })),
  clear: () => set({ draft: EMPTY_DRAFT }),
}));
