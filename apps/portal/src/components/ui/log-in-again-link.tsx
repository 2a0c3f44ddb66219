import styled from 'styled-components';

import { paths } from '@/config/paths';
import { useLoadedClient } from '@/hooks/use-loaded-client';
import { rememberReturnPath } from '@/lib/return-path';

/**
 * What a failure caused by an ended session offers instead of Retry (which cannot work): the login page, which
 * brings the user back to this page afterwards (its draft is kept in the tab).
 */
export function LogInAgainLink({ prefix }: { prefix: string }) {
  // The user whose session ended here (the hub's client data, loaded while it was open).
  const { client } = useLoadedClient();
  return (
    <Link href={paths.app.login(prefix)} onClick={() => rememberReturnPath(prefix, client.email)}>
      Log in again
    </Link>
  );
}

/** The surrounding text's colour (a notice's colours are checked for contrast), underlined, a full touch target. */
const Link = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 2.75rem;
  font-weight: ${({ theme }) => theme.fontWeight.bold};
  color: inherit;
  text-decoration: underline;
`;
