import styled from 'styled-components';

import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { useLoadedClient } from '@/hooks/use-loaded-client';
import { takeReturnPath } from '@/lib/return-path';

/**
 * /{client}/login: the client's name and the login form. Loads no calculator, pricing or PDF code, and no SWR: it
 * reads the client the route loaded.
 */
export function Component() {
  const { prefix, client } = useLoadedClient();

  return (
    <Page>
      <title>{`Log in – ${client.name}`}</title>
      <Panel>
        {client.branding.logo_url ? <Logo src={client.branding.logo_url} alt="" /> : null}
        <h1>{client.name}</h1>
        <Lead>Log in to your client hub with your details.</Lead>
        <LoginForm
          prefix={prefix}
          onLoggedIn={(_response, email) => {
            // The session has started: enter the hub with a fresh page load, which reads the client anew, on the
            // page "Log in again" was pressed on by this user (their draft is kept there), else on the dashboard.
            window.location.replace(takeReturnPath(prefix, email) ?? paths.app.dashboard(prefix));
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
  margin-bottom: ${({ theme }) => theme.space.md};
`;

const Lead = styled.p`
  margin: ${({ theme }) => `${theme.space.xs} 0 ${theme.space.lg}`};
  color: ${({ theme }) => theme.color.muted};
`;
