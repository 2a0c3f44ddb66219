import styled from 'styled-components';
import { useNavigate } from 'react-router-dom';

import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { useClient } from '@/hooks/use-client';

/** /{client}/login: the client's name and the login form. Loads no calculator, pricing or PDF code. */
export function Component() {
  const { prefix, client, mutate } = useClient();
  const navigate = useNavigate();

  return (
    <Page>
      <title>{`Log in – ${client.name}`}</title>
      <Panel>
        {client.branding.logo_url ? <Logo src={client.branding.logo_url} alt="" /> : null}
        <h1>{client.name}</h1>
        <Lead>Log in to your client hub with your details.</Lead>
        <LoginForm
          prefix={prefix}
          onLoggedIn={async () => {
            // The session has started: re-read the client before entering the hub.
            await mutate();
            navigate(paths.app.dashboard(prefix), { replace: true });
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
