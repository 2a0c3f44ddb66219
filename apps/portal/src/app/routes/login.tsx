import styled from 'styled-components';

import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { useLoadedClient } from '@/hooks/use-loaded-client';
import { documentTitleOf } from '@/lib/document-title';
import { forgetTabData } from '@/lib/tab-data';
import { logoSize } from '@/lib/logo';

/**
 * /{client}/login: the client's name and the login form. Loads no calculator, pricing or PDF code, and no SWR: it
 * reads the client the route loaded.
 */
export function Component() {
  const { prefix, client } = useLoadedClient();

  return (
    <Page>
      <title>{documentTitleOf('Log in', client)}</title>
      <Panel>
        {client.branding.logo_url ? (
          <Logo src={client.branding.logo_url} alt="" {...logoSize(client.branding)} />
        ) : null}
        <h1>{client.name}</h1>
        <Lead>Log in to your client hub with your details.</Lead>
        <LoginForm
          prefix={prefix}
          onLoggedIn={() => {
            // An open login (a magic-link login ends on the API's Continue page): it proves no one's identity, so
            // nothing kept in this tab by an earlier session, under this e-mail or any other, is shown to it
            // (decisions.md §2): drafts, estimates, selections and the page to come back to are forgotten. Then
            // the hub, with a fresh page load, which reads the client anew.
            forgetTabData();
            window.location.replace(paths.app.dashboard(prefix));
          }}
        />
      </Panel>
    </Page>
  );
}

const Page = styled.main`
  display: grid;
  place-items: center;
  min-height: 100vh;
  padding: ${({ theme }) => theme.space.md};
`;

const Panel = styled.div`
  width: min(100%, 28rem);
  padding: ${({ theme }) => theme.space.xl};
  background: ${({ theme }) => theme.color.surface};
  border-radius: ${({ theme }) => theme.radius.lg};
  box-shadow: ${({ theme }) => theme.shadow.md};

  h1 {
    margin: 0;
    /* A client name of 200 letters with no space breaks inside the panel. */
    overflow-wrap: anywhere;
    font-size: ${({ theme }) => theme.fontSize.xxl};
  }
`;

const Logo = styled.img`
  display: block;
  height: 3rem;
  width: auto;
  /* A logo far wider than high (5,000 by 10) is drawn smaller within the panel, rather than 24,000 px wide with the
     form beyond the window (found by the twenty-ninth session's portal probe). */
  max-width: 100%;
  object-fit: contain;
  object-position: left center;
  margin-bottom: ${({ theme }) => theme.space.md};
`;

const Lead = styled.p`
  margin: ${({ theme }) => `${theme.space.xs} 0 ${theme.space.lg}`};
  color: ${({ theme }) => theme.color.muted};
`;
