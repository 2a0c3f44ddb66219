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
import { createJSONStorage, persist } from 'zustand/middleware';

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
  inputs: FrameworkInputs;
  setInput: <K extends keyof FrameworkInputs>(key: K, value: FrameworkInputs[K]) => void;
  reset: () => void;
}

/**
 * The framework's selections (client state), kept for the browser session so the table is as the
 * user left it when they come back.
 */
export const useFrameworkStore = create<FrameworkState>()(
  persist(
    (set) => ({
      inputs: initialFrameworkInputs,
      setInput: (key, value) => set((state) => ({ inputs: { ...state.inputs, [key]: value } })),
      reset: () => set({ inputs: initialFrameworkInputs }),
    }),
    {
      name: 'framework',
      version: 1,
      storage: createJSONStorage(() => sessionStorage),
      partialize: ({ inputs }) => ({ inputs }),
      merge: (persisted, current) => ({
        ...current,
        inputs: validInputs((persisted as Partial<FrameworkState> | undefined)?.inputs),
      }),
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
