import type { RefObject } from 'react';
import styled from 'styled-components';

import { paths } from '@/config/paths';
import { confirmLeavingPage } from '@/hooks/use-leave-warning';
import { announceLogout } from '@/hooks/use-session-across-tabs';
import { isPlainClick } from '@/lib/plain-click';
import { forgetTabData } from '@/lib/tab-data';
import type { Client } from '@/types/api';

import { SearchBox } from './search-box';
import { logoSize } from '@/lib/logo';

interface SiteHeaderProps {
  client: Client;
  menuOpen: boolean;
  menuId: string;
  menuButton: RefObject<HTMLButtonElement | null>;
  onOpenMenu: () => void;
}

/** Welcome, search, who is logged in, and Log out (a full page navigation: the API ends the session). */
export function SiteHeader({ client, menuOpen, menuId, menuButton, onOpenMenu }: SiteHeaderProps) {
  return (
    <Header>
      <MenuButton
        ref={menuButton}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={menuOpen}
        aria-controls={menuId}
        onClick={onOpenMenu}
      >
        <Burger aria-hidden="true" />
        Menu
      </MenuButton>
      <Brand>
        {client.branding.logo_url ? (
          <Logo src={client.branding.logo_url} alt="" {...logoSize(client.branding)} />
        ) : null}
        <Welcome>Welcome, {client.first_name}</Welcome>
      </Brand>
      <SearchBox prefix={client.prefix} />
      <User>
        <UserText>
          <strong>
            {client.first_name} {client.last_name}
          </strong>
          <span>{client.email}</span>
        </UserText>
        <LogOut
          href={paths.api.logout(client.prefix)}
          onClick={(event) => {
            // A click that opens the logout elsewhere (a new tab or window) leaves nothing here to ask about.
            if (isPlainClick(event) && !confirmLeavingPage()) {
              event.preventDefault();
              return;
            }
            forgetTabData();
            announceLogout(client.prefix);
          }}
        >
          Log out
        </LogOut>
      </User>
    </Header>
  );
}

const Header = styled.header`
  display: flex;
  flex-wrap: wrap;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm} ${({ theme }) => theme.space.md};
  padding: ${({ theme }) => `${theme.space.sm} ${theme.space.md}`};
  background: ${({ theme }) => theme.color.surface};
  border-bottom: 1px solid ${({ theme }) => theme.color.divider};
`;

const MenuButton = styled.button`
  display: inline-flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.xs};
  min-height: 2.75rem;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`};
  font: inherit;
  color: ${({ theme }) => theme.color.text};
  background: transparent;
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  cursor: pointer;

  ${({ theme }) => theme.media.md} {
    display: none;
  }
`;

const Burger = styled.span`
  display: inline-block;
  width: 1.1rem;
  height: 2px;
  background: currentColor;
  box-shadow:
    0 -6px 0 currentColor,
    0 6px 0 currentColor;
`;

const Brand = styled.div`
  display: flex;
  align-items: center;
  gap: ${({ theme }) => theme.space.sm};
  flex: 1 1 auto;
  min-width: 0;

  ${({ theme }) => theme.media.md} {
    flex: 0 1 auto;
  }
`;

const Logo = styled.img`
  height: 2rem;
  width: auto;
  /* A logo far wider than high (5,000 by 10) is drawn smaller, within 10rem and half the row it shares with the
     welcome, rather than widening the page (found by the twenty-ninth session's portal probe). */
  min-width: 0;
  max-width: min(10rem, 50%);
  object-fit: contain;
  object-position: left center;
`;

const Welcome = styled.p`
  margin: 0;
  /* A first name as long as the API takes (100 letters, no space) wraps instead of widening the page. */
  min-width: 0;
  overflow-wrap: anywhere;
  font-size: ${({ theme }) => theme.fontSize.lg};
  font-weight: ${({ theme }) => theme.fontWeight.medium};
`;

const User = styled.div`
  display: flex;
  align-items: center;
  justify-content: space-between;
  gap: ${({ theme }) => theme.space.md};
  flex: 1 1 100%;
  min-width: 0;

  ${({ theme }) => theme.media.md} {
    flex: 0 1 auto;
    margin-left: auto;
  }
`;

const UserText = styled.p`
  display: flex;
  flex-direction: column;
  margin: 0;
  font-size: ${({ theme }) => theme.fontSize.sm};
  line-height: ${({ theme }) => theme.lineHeight.tight};
  min-width: 0;
  overflow-wrap: anywhere;

  ${({ theme }) => theme.media.md} {
    text-align: right;
  }

  span {
    color: ${({ theme }) => theme.color.muted};
  }
`;

const LogOut = styled.a`
  display: inline-flex;
  align-items: center;
  min-height: 2.5rem;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`};
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  color: ${({ theme }) => theme.color.text};
  text-decoration: none;
  white-space: nowrap;

  &:hover {
    text-decoration: underline;
  }
`;
