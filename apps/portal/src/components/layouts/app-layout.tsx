import { useId, useRef, useState } from 'react';
import type { ReactNode, RefObject } from 'react';
import styled, { useTheme } from 'styled-components';

import { InsideMainLandmark } from '@/lib/main-landmark';
import { useIgnoreRepeatedLinkClicks } from '@/lib/repeated-navigation';
import type { Client } from '@/types/api';

import { ContactCard } from './contact-card';
import { NavDrawer } from './nav-drawer';
import { SidebarNav } from './sidebar-nav';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

export const MAIN_CONTENT_ID = 'main-content';

interface AppLayoutProps {
  client: Client;
  /** False on the due-diligence page, which hides the footer banner (spec §2). */
  showFooterBanner: boolean;
  mainRef?: RefObject<HTMLElement | null>;
  /** Shown at the top of the main area, above the page (the session has ended: `app-root.tsx`). */
  notice?: ReactNode;
  children: ReactNode;
}

/**
 * The logged-in hub: skip link, header, the sidebar (a drawer behind the Menu button on small screens), the main
 * area and the footer.
 */
export function AppLayout({ client, showFooterBanner, mainRef, notice, children }: AppLayoutProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  // A link to the page already on its way, clicked again, lets that navigation go on rather than start it anew.
  useIgnoreRepeatedLinkClicks();
  const menuButton = useRef<HTMLButtonElement>(null);
  const menuId = useId();
  const closeMenu = () => setMenuOpen(false);
  const theme = useTheme();
  const sidebar = useRef<HTMLDivElement>(null);
  const main = useRef<HTMLElement | null>(null);
  /** A drawer closed by a widened window: the same entry of the sidebar takes the focus, or else the main area. */
  const focusInstead = (focused: Element | null) => {
    const href = focused instanceof HTMLAnchorElement ? focused.getAttribute('href') : null;
    const entry = href
      ? [...(sidebar.current?.querySelectorAll('a') ?? [])].find(
          (link) => link.getAttribute('href') === href,
        )
      : undefined;
    return entry ?? main.current;
  };
  const setMain = (element: HTMLElement | null) => {
    main.current = element;
    if (mainRef) mainRef.current = element;
  };

  return (
    <>
      <SkipLink href={`#${MAIN_CONTENT_ID}`}>Skip to main content</SkipLink>
      <SiteHeader
        client={client}
        menuOpen={menuOpen}
        menuId={menuId}
        menuButton={menuButton}
        onOpenMenu={() => setMenuOpen(true)}
      />
      <NavDrawer
        id={menuId}
        open={menuOpen}
        onClose={closeMenu}
        returnFocusTo={menuButton}
        closeWhen={`(min-width: ${theme.breakpoints.md}px)`}
        focusInstead={focusInstead}
      >
        <SidebarNav prefix={client.prefix} onNavigate={closeMenu} />
        <ContactCard contact={client.contact} />
      </NavDrawer>
      <Body>
        <Sidebar ref={sidebar}>
          <SidebarInner>
            <SidebarNav prefix={client.prefix} />
            <ContactCard contact={client.contact} />
          </SidebarInner>
        </Sidebar>
        <Main id={MAIN_CONTENT_ID} tabIndex={-1} ref={setMain}>
          {notice}
          <InsideMainLandmark.Provider value={true}>{children}</InsideMainLandmark.Provider>
        </Main>
      </Body>
      <SiteFooter client={client} showBanner={showFooterBanner} />
    </>
  );
}

const SkipLink = styled.a`
  position: absolute;
  left: ${({ theme }) => theme.space.sm};
  top: ${({ theme }) => theme.space.sm};
  z-index: 10;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.md}`};
  color: ${({ theme }) => theme.color.onPrimary};
  background: ${({ theme }) => theme.color.primary};
  border-radius: ${({ theme }) => theme.radius.md};
  transform: translateY(-200%);

  &:focus {
    transform: none;
  }
`;

const Body = styled.div`
  display: grid;
  grid-template-columns: minmax(0, 1fr);

  ${({ theme }) => theme.media.md} {
    grid-template-columns: 17rem minmax(0, 1fr);
  }
`;

/** The sidebar column runs the full height of the page; its content stays in view while the page scrolls. */
const Sidebar = styled.div`
  display: none;

  ${({ theme }) => theme.media.md} {
    display: block;
    background: ${({ theme }) => theme.color.surface};
    border-right: 1px solid ${({ theme }) => theme.color.divider};
  }
`;

const SidebarInner = styled.div`
  position: sticky;
  top: 0;
  max-height: 100vh;
  overflow-y: auto;
  padding: ${({ theme }) => theme.space.md};
`;

/** A word longer than the column (a title, a search, a name of 2,000 letters) breaks rather than widen the page. */
const Main = styled.main`
  min-width: 0;
  overflow-wrap: break-word;
  padding: ${({ theme }) => theme.space.md};

  ${({ theme }) => theme.media.md} {
    padding: ${({ theme }) => theme.space.xl};
  }

  &:focus {
    outline: none;
  }
`;
