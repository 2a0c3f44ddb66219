import { FRAMEWORK_LIMITS } from '@firm/pricing';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

import { newSubmissionKey } from '@/lib/submission-key';
import { tabStorage } from '@/lib/tab-storage';

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

/**
 * The `Idempotency-Key` of the request last sent, with what it was sent with: sending exactly that again (after a
 * failure, a lost answer, leaving the page mid-upload, a reload with the same file chosen again) reuses the key,
 * so a request the API stored after all is answered from the stored one rather than stored and e-mailed twice.
 */
export interface PendingRequest {
  key: string;
  /** What was sent: the draft, the file's name, size and date, the user's e-mail and name. */
  fingerprint: string;
}

interface DraftStore {
  /** Whose draft this is (`prefix/email`); another user or client starts from an empty form. */
  owner: string | null;
  draft: DueDiligenceDraft;
  pending: PendingRequest | null;
  /**
   * The name of the file chosen with the draft (its name only: a file cannot be kept), so that a form drawn again
   * without it (after logging in again, a reload, leaving the page) can say which file to choose again.
   */
  fileName: string | null;
  /** Takes the draft for `owner`, emptying it when it belonged to someone else. */
  claim: (owner: string) => void;
  update: (change: Partial<DueDiligenceDraft>) => void;
  /** Notes the file chosen (`null`: none, or the choice was cleared or refused). */
  chooseFile: (fileName: string | null) => void;
  /** The key to send a request with: the pending one's for the same request, a new one otherwise. */
  keyFor: (fingerprint: string) => string;
  /** Empties the draft and forgets the key (the request was stored). */
  clear: () => void;
}

/**
 * The longest file name kept: what file systems allow (255), whatever was put in the tab's storage. Declared
 * before the store, which reads the tab's storage as it is made (found by the nineteenth session's portal probe:
 * declared after it, the limit was not yet set when a page load read the draft back, so every kept file name was
 * dropped and the form said nothing of the file it no longer had).
 */
const MAX_FILE_NAME = 255;

/** Kept in sessionStorage, as the calculators' drafts are: this tab only, gone when the browser session ends. */
export const useDueDiligenceDraft = create<DraftStore>()(
  persist(
    (set, get) => ({
      owner: null,
      draft: EMPTY_DRAFT,
      pending: null,
      fileName: null,
      claim: (owner) => {
        if (get().owner !== owner)
          set({ owner, draft: EMPTY_DRAFT, pending: null, fileName: null });
      },
      update: (change) => set((state) => ({ draft: { ...state.draft, ...change } })),
      chooseFile: (fileName) => set({ fileName }),
      keyFor: (fingerprint) => {
        const { pending } = get();
        if (pending?.fingerprint === fingerprint) return pending.key;
        const key = newSubmissionKey();
        set({ pending: { key, fingerprint } });
        return key;
      },
      clear: () => set({ draft: EMPTY_DRAFT, pending: null, fileName: null }),
    }),
    {
      name: 'due-diligence:draft',
      version: 1,
      storage: tabStorage(),
      partialize: ({ owner, draft, pending, fileName }) => ({ owner, draft, pending, fileName }),
      merge: (persisted, current) => {
        const saved = (persisted ?? {}) as Partial<
          Pick<DraftStore, 'owner' | 'draft' | 'pending' | 'fileName'>
        >;
        return {
          ...current,
          owner: typeof saved.owner === 'string' ? saved.owner : null,
          draft: mergeDraft(saved.draft),
          pending: isPendingRequest(saved.pending) ? saved.pending : null,
          fileName: isFileName(saved.fileName) ? saved.fileName : null,
        };
      },
    },
  ),
);

/**
 * Keeps from a stored draft only the fields that still exist, with their types, and amounts only when they are
 * whole pounds within the field's range (anything else: the default). An amount of £500,000.50 altered in the
 * tab's storage crashed the page to "Oops!" until Log out.
 */
function mergeDraft(saved: unknown): DueDiligenceDraft {
  if (typeof saved !== 'object' || saved === null) return EMPTY_DRAFT;
  const merged: Record<string, unknown> = { ...EMPTY_DRAFT };
  for (const [key, value] of Object.entries(EMPTY_DRAFT)) {
    const candidate = (saved as Record<string, unknown>)[key];
    if (typeof candidate !== typeof value) continue;
    if (key in DUE_DILIGENCE_LIMITS) {
      const { min, max } = DUE_DILIGENCE_LIMITS[key as keyof typeof DUE_DILIGENCE_LIMITS];
      if (
        !Number.isSafeInteger(candidate) ||
        (candidate as number) < min ||
        (candidate as number) > max
      ) {
        continue;
      }
    }
    merged[key] = candidate;
  }
  return merged as unknown as DueDiligenceDraft;
}

/** A file name as saved: a name a file could have (anything else, such as pages of text: none). */
function isFileName(saved: unknown): saved is string {
  return typeof saved === 'string' && saved.trim() !== '' && saved.length <= MAX_FILE_NAME;
}

/** A pending request as saved (anything else, such as a draft saved before there were keys: none). */
function isPendingRequest(saved: unknown): saved is PendingRequest {
  if (typeof saved !== 'object' || saved === null) return false;
  const { key, fingerprint } = saved as Record<string, unknown>;
  return typeof key === 'string' && key !== '' && typeof fingerprint === 'string';
}
