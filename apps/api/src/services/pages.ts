const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/**
 * A client's name inside the page's own sentences, isolated: its direction marks (a name ending in U+202E,
 * RIGHT-TO-LEFT OVERRIDE) stay inside it instead of turning the rest of the sentence (" login page.") around.
 */
const isolated = (name: string): string => `<bdi>${escapeHtml(name)}</bdi>`;

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en-GB">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
  body { font-family: system-ui, sans-serif; background: #f4f6f8; color: #1b2430; margin: 0; }
  main { max-width: 28rem; margin: 12vh auto; background: #fff; padding: 2rem; border-radius: 8px;
         box-shadow: 0 1px 4px rgba(0,0,0,.12); overflow-wrap: anywhere; }
  h1 { font-size: 1.4rem; margin-top: 0; }
  button, a.button { font: inherit; background: #1f3a5f; color: #fff; border: 0; border-radius: 4px;
         padding: .7rem 1.4rem; cursor: pointer; text-decoration: none; display: inline-block; }
  /* The ring: 11:1 against the card and the page (the accent #c8963e was 2.7:1 and 2.5:1, under the 3:1 of WCAG 1.4.11). */
  button:focus-visible, a:focus-visible { outline: 3px solid #1f3a5f; outline-offset: 2px; }
</style>
</head>
<body><main>${body}</main></body>
</html>
`;
}

/** The page a login link opens: no side effects (mail scanners open links); its button POSTs the token. */
export function continuePage(clientName: string, prefix: string, token: string): string {
  return page(
    `Log in to ${clientName}`,
    `<h1>Log in to ${isolated(clientName)}</h1>
<p>Press Continue to finish logging in.</p>
<form method="post" action="/api/${encodeURIComponent(prefix)}/login/link">
<input type="hidden" name="token" value="${escapeHtml(token)}">
<button type="submit">Continue</button>
</form>`,
  );
}

/**
 * Shown for a used, expired, unknown or other client's login link. `loggedIn`: the browser already has a session of
 * this client (a link opened again after it was used, from the mail, history or another tab). The link is refused
 * all the same, but "Back to the login page" would have led to the dashboard (the portal sends a logged-in user
 * there from the login page), under a heading that says the user cannot get in: the page says they are in, and
 * leads there. Only the session chooses the text, never the token, so a used, an expired and an unknown token
 * still get the same page.
 */
export function invalidLinkPage(
  clientName: string,
  prefix: string,
  { loggedIn = false }: { loggedIn?: boolean } = {},
): string {
  const client = encodeURIComponent(prefix);
  if (loggedIn) {
    return page(
      'Login link invalid or expired',
      `<h1>This login link is invalid or has expired</h1>
<p>You are already logged in to ${isolated(clientName)} in this browser, so you do not need a login link.</p>
<p>To log in with another email address, log out first, then ask for a new link.</p>
<p><a class="button" href="/${client}/dashboard">Go to the dashboard</a></p>`,
    );
  }
  return page(
    'Login link invalid or expired',
    `<h1>This login link is invalid or has expired</h1>
<p>Login links work once and for 15 minutes. Ask for a new one on the ${isolated(clientName)} login page.</p>
<p><a class="button" href="/${client}/login">Back to the login page</a></p>`,
  );
}
