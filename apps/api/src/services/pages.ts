import type { UserDetails } from '../repositories/users.js';

/** Escapes text for a page. */
export const escapeHtml = (text: string): string =>
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
  form + form { margin-top: 1rem; }
  button:focus-visible, a:focus-visible { outline: 3px solid #1f3a5f; outline-offset: 2px; }
</style>
</head>
<body><main>${body}</main></body>
</html>
`;
}

/** The details a login link records: a person's names and phone, as the login form gave them. */
export type LinkDetails = Pick<UserDetails, 'first_name' | 'last_name' | 'phone'>;

const sameDetails = (a: LinkDetails, b: LinkDetails): boolean =>
  a.first_name === b.first_name && a.last_name === b.last_name && a.phone === b.phone;

const described = (details: LinkDetails): string =>
  `${isolated(`${details.first_name} ${details.last_name}`)}, phone ${isolated(details.phone)}`;

/**
 * The page a login link opens: no side effects (mail scanners open links); its button POSTs the token. Anyone may
 * ask for a link to anyone's address, typing names and a phone of their own; opening the link in that mail would
 * have recorded them as the address's owner, and the team's mails would have named them and their phone
 * (twenty-ninth session's API probe). So the page names the details the link was asked with (`given`), for a
 * valid link; and when the address already has an account holding other ones (`held`), it offers both, keeping
 * the held ones first. The mail itself still holds no text the request chose.
 */
export function continuePage(
  clientName: string,
  prefix: string,
  token: string,
  details?: { given: LinkDetails; held?: LinkDetails },
): string {
  const form = (choice: 'held' | 'given' | undefined, label: string) =>
    `<form method="post" action="/api/${encodeURIComponent(prefix)}/login/link">
<input type="hidden" name="token" value="${escapeHtml(token)}">${
      choice === undefined ? '' : `\n<input type="hidden" name="details" value="${choice}">`
    }
<button type="submit">${label}</button>
</form>`;
  let body: string;
  if (details === undefined) {
    body = `<p>Press Continue to finish logging in.</p>\n${form(undefined, 'Continue')}`;
  } else if (details.held === undefined || sameDetails(details.given, details.held)) {
    body = `<p>This link was asked for as ${described(details.given)}. If that is not you, close this page: nothing happens until you press Continue.</p>
${form(undefined, 'Continue')}`;
  } else {
    body = `<p>This link was asked for as ${described(details.given)}. We hold ${described(details.held)} for this email address.</p>
<p>If you did not ask for this link, log in with the details we hold, or close this page.</p>
${form('held', 'Continue with the details we hold')}
${form('given', 'Continue and update my details')}`;
  }
  return page(
    `Log in to ${clientName}`,
    `<h1>Log in to ${isolated(clientName)}</h1>
${body}`,
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

/**
 * Shown instead of JSON when a login link's page or its Continue met a fault of the surroundings (a full disk, the
 * database unavailable): a person opened these in a browser, which showed `{"error":"…"}` raw (found by the
 * thirty-first session's fault probe). Nothing was spent: the link still works until it runs out.
 */
export function linkFaultPage(message: string): string {
  return page(
    'The portal cannot log you in just now',
    `<h1>The portal cannot log you in just now</h1>
<p>${escapeHtml(message)}</p>
<p>Your login link has not been used: open it again in a few minutes. It works for 15 minutes from when it was sent; after that, ask for a new one on the login page.</p>`,
  );
}

/**
 * Shown instead of JSON when the Continue form was refused before it was read (a body too large, of another type or
 * charset, malformed, posted from another site), to a person's browser, which showed `{"error":"…"}` raw (found by
 * the thirty-second session's browser-fault probe). Nothing was spent: the link still works until it runs out.
 */
export function linkRefusedPage(message: string): string {
  return page(
    'The login was not completed',
    `<h1>The login was not completed</h1>
<p>${escapeHtml(message)}</p>
<p>Your login link has not been used: open it again from the email and press Continue. It works for 15 minutes from when it was sent; after that, ask for a new one on the login page.</p>`,
  );
}
