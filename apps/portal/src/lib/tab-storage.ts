import type { PersistStorage, StorageValue } from 'zustand/middleware';

/*
 * What the hub's pages keep in this tab's sessionStorage, and how: the stores' storage, and the drafts of other
 * owners forgotten as the hub opens. Apart from `tab-data.ts` (forgetting everything, which the login page does), so
 * that the login page loads none of it.
 */

/**
 * Forgets what this tab keeps for anyone but `owner` (`prefix/email`, as the drafts name whose they are): called as
 * the hub opens for a logged-in user. A session that ended without Log out (12 hours idle) left its user's drafts
 * in the tab, and the next user's magic-link login kept them there: hidden from the pages, which start afresh for
 * another owner, but readable in the browser's developer tools, and each kept until that calculator was used
 * (found by the thirtieth session's portal probe). What `owner` left is kept.
 */
export function forgetOthersTabData(owner: string): void {
  try {
    for (const key of Object.keys(sessionStorage)) {
      const kept = ownerOf(sessionStorage.getItem(key));
      if (kept !== undefined && kept !== owner) sessionStorage.removeItem(key);
    }
  } catch {
    // Storage refused (private mode): nothing was kept.
  }
}

/** Whose a stored draft is: the `owner` of a store's saved state (`{ state: { owner } }`), when it names one. */
function ownerOf(stored: string | null): string | undefined {
  if (stored === null) return undefined;
  try {
    const saved: unknown = JSON.parse(stored);
    const state: unknown = (saved as { state?: unknown } | null)?.state;
    const owner: unknown = (state as { owner?: unknown } | null)?.owner;
    return typeof owner === 'string' ? owner : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This tab's sessionStorage for the stores that keep drafts in it (zustand's `persist`), refusals swallowed. Found by
 * the thirty-first session's portal probe: 6 MB pasted in the project description (or a calculator's name) went past
 * the storage's quota, and every change after it threw `QuotaExceededError` out of the store, uncaught, in the page. A
 * draft too large to keep is kept without its longest texts ({@link withoutLongestText}): found by the same probe,
 * every draft after the 6 MB one held it too and was not kept either, so the fields typed after it were lost on a
 * reload. The page goes on with what is on screen; a text too large to keep is hundreds of times over its field's
 * limit, which the form says at the field, so the page says nothing more of it.
 *
 * It takes the draft itself, not its JSON (as `createJSONStorage` would give it), and writes it as that would: a draft
 * over the quota was parsed back from its JSON to leave texts out, on every keystroke while it stayed over, all of
 * its megabytes each time (a known fault of the thirty-first session's fix). It reads as `createJSONStorage` does.
 */
export function tabStorage<S>(): PersistStorage<S> {
  return {
    getItem(name) {
      let stored: string | null;
      try {
        stored = sessionStorage.getItem(name);
      } catch {
        return null;
      }
      return stored === null ? null : (JSON.parse(stored) as StorageValue<S>);
    },
    setItem(name, value) {
      // Over the quota (or storage refused: then nothing is kept either way), the draft less its longest text.
      let draft: unknown = value;
      for (let left = MAX_TEXTS_LEFT_OUT; ; left -= 1) {
        if (keep(name, JSON.stringify(draft)) || left === 0) return;
        draft = withoutLongestText(draft);
        if (draft === undefined) return;
      }
    },
    removeItem(name) {
      try {
        sessionStorage.removeItem(name);
      } catch {
        // Storage refused: nothing was kept.
      }
    },
  };
}

/** Whether `value` was kept under `name` (not when over the quota, or when storage is refused). */
function keep(name: string, value: string): boolean {
  try {
    sessionStorage.setItem(name, value);
    return true;
  } catch {
    return false;
  }
}

/** How many texts a draft may be kept without before it is not kept at all (the last one that fitted stays). */
const MAX_TEXTS_LEFT_OUT = 8;

/**
 * Texts shorter than this are never left out: a draft cannot go past the quota by them, only be crowded out by
 * others, and an owner or a key emptied would lose the whole draft (the last one that fitted stays instead).
 */
const LONG_TEXT = 1024;

/**
 * A copy of a draft with its longest text (a field's value, at any depth) empty, when it has one of {@link LONG_TEXT}
 * characters or more; else `undefined`. The draft itself is left as it is (it is the store's, on screen): only the
 * objects on the way to that text are copied. An empty text reads back as a field not filled in (the stores check
 * what they read back by type, so a missing field would have taken its neighbours with it: a calculator's contact
 * details are kept only as a whole).
 */
function withoutLongestText(draft: unknown): unknown {
  let longest: { path: string[]; length: number } | undefined;
  const path: string[] = [];
  const visit = (value: unknown) => {
    if (typeof value !== 'object' || value === null) return;
    for (const [key, field] of Object.entries(value)) {
      if (typeof field === 'string') {
        if (field.length >= LONG_TEXT && field.length > (longest?.length ?? 0)) {
          longest = { path: [...path, key], length: field.length };
        }
      } else {
        path.push(key);
        visit(field);
        path.pop();
      }
    }
  };
  visit(draft);
  return longest === undefined ? undefined : emptied(draft, longest.path);
}

/** A copy of `value` with the text at `path` empty, sharing everything off that path. */
function emptied(value: unknown, path: readonly string[]): unknown {
  const [key, ...rest] = path;
  if (key === undefined) return '';
  const holder = value as Record<string, unknown>;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...holder }) as Record<
    string,
    unknown
  >;
  copy[key] = emptied(holder[key], rest);
  return copy;
}
