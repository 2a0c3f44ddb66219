/**
 * Forgets everything the portal keeps in this tab (sessionStorage: the calculators' drafts and estimates, the due
 * diligence draft, the framework's selections, the page to come back to after logging in). Called as the user
 * logs out, and as an open login starts, so whoever uses the tab next starts from nothing, even under the same
 * e-mail address (an open client's login proves no one's identity: decisions.md §2). A magic-link login, which
 * proves the e-mail, finds what its user left when their session ended.
 */
export function forgetTabData(): void {
  try {
    sessionStorage.clear();
  } catch {
    // Storage refused (private mode): nothing was kept.
  }
}

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
 * This tab's sessionStorage for the stores that keep drafts in it, refusals swallowed. Found by the thirty-first
 * session's portal probe: 6 MB pasted in the project description (or a calculator's name) went past the storage's
 * quota, and every change after it threw `QuotaExceededError` out of the store, uncaught, in the page. A draft too
 * large to keep is not kept: the last one that fitted stays, and the page goes on with what is on screen.
 */
export const tabStorage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> = {
  getItem(name) {
    try {
      return sessionStorage.getItem(name);
    } catch {
      return null;
    }
  },
  setItem(name, value) {
    try {
      sessionStorage.setItem(name, value);
    } catch {
      // Over the quota, or storage refused (private mode): not kept.
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
