import {
  CONTRACTORS,
  DEVELOPMENT_TYPES,
  FRAMEWORK_LIMITS,
  FRAMEWORK_PROPERTY_TYPES,
  recommendInsuranceFramework,
  SCHEME_LOCATIONS,
  type InsuranceFrameworkInput,
} from '@firm/pricing';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

import { tabStorage } from '@/lib/tab-storage';

export type FrameworkInputs = {
  -readonly [K in keyof InsuranceFrameworkInput]: InsuranceFrameworkInput[K];
};

export const initialFrameworkInputs: FrameworkInputs = {
  propertyType: FRAMEWORK_PROPERTY_TYPES[0],
  contractValue: FRAMEWORK_LIMITS.contractValue.default,
  hasBasement: false,
  // A ground-up new build: the common case, and no existing structures to value yet.
  developmentType: DEVELOPMENT_TYPES[1],
  gdv: FRAMEWORK_LIMITS.gdv.default,
  contractor: CONTRACTORS[0],
  schemeLocation: SCHEME_LOCATIONS[0],
  reinstatement: FRAMEWORK_LIMITS.reinstatement.default,
  hasFlatRoof: false,
};

interface FrameworkState {
  /** Whose selections these are (`prefix/email`); another user or client starts from the defaults. */
  owner: string | null;
  inputs: FrameworkInputs;
  /** Takes the selections for `owner`, back to the defaults when they belonged to someone else. */
  claim: (owner: string) => void;
  setInput: <K extends keyof FrameworkInputs>(key: K, value: FrameworkInputs[K]) => void;
  reset: () => void;
}

/**
 * The framework's selections (client state), kept for the browser session so the table is as the
 * user left it when they come back: the user's own, as the calculators' drafts are.
 */
export const useFrameworkStore = create<FrameworkState>()(
  persist(
    (set, get) => ({
      owner: null,
      inputs: initialFrameworkInputs,
      claim: (owner) => {
        if (get().owner !== owner) set({ owner, inputs: initialFrameworkInputs });
      },
      setInput: (key, value) => set((state) => ({ inputs: { ...state.inputs, [key]: value } })),
      reset: () => set({ owner: null, inputs: initialFrameworkInputs }),
    }),
    {
      name: 'framework',
      version: 1,
      storage: tabStorage(),
      partialize: ({ owner, inputs }) => ({ owner, inputs }),
      merge: (persisted, current) => {
        const saved = persisted as Partial<FrameworkState> | undefined;
        return {
          ...current,
          owner: typeof saved?.owner === 'string' ? saved.owner : null,
          inputs: validInputs(saved?.inputs),
        };
      },
    },
  ),
);

/** Saved selections when the library still accepts them, else the defaults. */
function validInputs(saved: unknown): FrameworkInputs {
  if (typeof saved !== 'object' || saved === null) return initialFrameworkInputs;
  const candidate = { ...initialFrameworkInputs, ...(saved as Partial<FrameworkInputs>) };
  try {
    recommendInsuranceFramework(candidate);
    return candidate;
  } catch {
    return initialFrameworkInputs;
  }
}
