import styled from 'styled-components';

import { paths } from '@/config/paths';
import { useLoadedClient } from '@/hooks/use-loaded-client';
import { rememberReturnPath } from '@/lib/return-path';

/**
 * What a failure caused by an ended session offers instead of Retry (which cannot work): the login page, which
 * brings the user back to this page afterwards (its draft is kept in the tab). `draft`: the page holds work in a
 * form, which an open login does not keep.
 */
export function LogInAgainLink({ prefix, draft = false }: { prefix: string; draft?: boolean }) {
  // The user whose session ended here (the hub's client data, loaded while it was open).
  const { client } = useLoadedClient();
  return (
    <>
      <Link href={paths.app.login(prefix)} onClick={() => rememberReturnPath(prefix, client.email)}>
        Log in again
      </Link>
      {draft && client.login_policy === 'open' ? (
        // An open login proves no one's identity, so it starts from empty forms (decisions.md §2; lib/tab-data.ts):
        // said before the work on screen is dropped, while it can still be copied (found by the nineteenth
        // session's portal probe: a long description was gone after logging in again, without a word).
        <span> {OPEN_LOGIN_STARTS_EMPTY}</span>
      ) : null}
    </>
  );
}

/** Said beside "Log in again" on an open client. */
export const OPEN_LOGIN_STARTS_EMPTY =
  'A new login here starts with empty forms: copy anything you want to keep first.';

/** The surrounding text's colour (a notice's colours are checked for contrast), underlined, a full touch target. */
const Link = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 2.75rem;
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  color: inherit;
  text-decoration: underline;
`;
