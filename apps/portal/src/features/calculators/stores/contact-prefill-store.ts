import { create } from 'zustand';
import { persist } from 'zustand/middleware';

import { normalisePhoneNumber } from '@/lib/phone-number';
import { tabStorage } from '@/lib/tab-storage';

import { contactProblem } from '../utils/contact';

/**
 * What the calculators prefill besides the logged-in user's details: the telephone last sent to the team from any
 * calculator (the API answered with a reference), for whom it was sent (`prefix/email`, as the drafts' owner).
 *
 * Found by the twenty-sixth session: a user whose phone number, given at login before the phone rule, is not one
 * corrected it in one calculator, and the other two prefilled the old number again (and flagged it only at
 * Calculate). The user record on the server is left as the login gave it: the phone is part of who a tab was
 * loaded for (`hooks/use-session-across-tabs.ts`), so changing it from a calculator would have the user's other
 * tabs load again as if someone else had logged in; the next login gives the server a new one.
 *
 * Kept in sessionStorage, as the drafts are, and forgotten with them at logout (`lib/tab-data.ts`).
 */
export interface ContactPrefillState {
  owner: string | null;
  /** The telephone last sent to the team by `owner`, its digits in ASCII; `null` before any. */
  telephone: string | null;
  /** Records the telephone `owner` has just sent to the team. */
  remember: (owner: string, telephone: string) => void;
  /** Forgets it (as a page loaded after logout does). */
  reset: () => void;
}

export const useContactPrefillStore = create<ContactPrefillState>()(
  persist(
    (set) => ({
      owner: null,
      telephone: null,
      remember: (owner, telephone) =>
        set({ owner, telephone: normalisePhoneNumber(telephone).trim() }),
      reset: () => set({ owner: null, telephone: null }),
    }),
    {
      name: 'calculator:contact',
      version: 1,
      storage: tabStorage(),
      partialize: ({ owner, telephone }) => ({ owner, telephone }),
      // Read back as if typed: anything but an owner and a phone number (altered in the tab's storage) is forgotten,
      // and a phone number is read as it would be sent (`normalisePhoneNumber`).
      merge: (persisted, current) => {
        const saved = (
          typeof persisted === 'object' && persisted !== null ? persisted : {}
        ) as Record<string, unknown>;
        const valid =
          typeof saved.owner === 'string' &&
          typeof saved.telephone === 'string' &&
          contactProblem({ name: '', telephone: saved.telephone, email: '' }, 'telephone') ===
            undefined;
        return {
          ...current,
          owner: valid ? (saved.owner as string) : null,
          // As it would be sent: a right-to-left override typed into the tab's storage is not shown in the field.
          telephone: valid ? normalisePhoneNumber(saved.telephone as string).trim() : null,
        };
      },
    },
  ),
);

/** The telephone `owner` last sent to the team from a calculator, or `null`. */
export function rememberedTelephone(
  state: Pick<ContactPrefillState, 'owner' | 'telephone'>,
  owner: string,
): string | null {
  return state.owner === owner ? state.telephone : null;
}
