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
