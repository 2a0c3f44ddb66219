import { useEffect, useRef } from 'react';
import type { ReactNode, RefObject } from 'react';
import styled from 'styled-components';

interface NavDrawerProps {
  id: string;
  open: boolean;
  onClose: () => void;
  /** Focus goes back here when the drawer closes. */
  returnFocusTo: RefObject<HTMLElement | null>;
  /**
   * A media query (`(min-width: 768px)`) from which the page shows the sidebar instead: the drawer closes when the
   * window comes to match it (a tablet turned, a window widened), since the button that closes it is then gone.
   */
  closeWhen?: string;
  /**
   * Where focus goes when the drawer closes while `returnFocusTo` is not shown (the window widened): given what
   * had the focus in the drawer, it returns the element to focus.
   */
  focusInstead?: (focused: Element | null) => HTMLElement | null | undefined;
  children: ReactNode;
}

/**
 * The sidebar on small screens: a modal `<dialog>` sliding in from the left. The browser traps focus inside it,
 * makes the page behind it inert and closes it on Escape; focus returns to the menu button.
 */
export function NavDrawer({
  id,
  open,
  onClose,
  returnFocusTo,
  closeWhen,
  focusInstead,
  children,
}: NavDrawerProps) {
  const dialog = useRef<HTMLDialogElement>(null);
  /** What had the focus in the drawer as it closed. */
  const focusedInside = useRef<Element | null>(null);
  const latestOnClose = useRef(onClose);
  latestOnClose.current = onClose;

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
    } else if (!open && element.open) {
      focusedInside.current = element.contains(document.activeElement)
        ? document.activeElement
        : null;
      element.close();
    }
  }, [open]);

  // Found by a hostile keyboard run: a drawer open when the window widened stayed open over the
  // desktop layout, the page behind it inert, with its Menu button hidden.
  useEffect(() => {
    if (!open || !closeWhen || typeof window.matchMedia !== 'function') return undefined;
    const wide = window.matchMedia(closeWhen);
    const change = () => {
      if (wide.matches) latestOnClose.current();
    };
    change();
    wide.addEventListener('change', change);
    return () => wide.removeEventListener('change', change);
  }, [open, closeWhen]);

  return (
    <Dialog
      id={id}
      ref={dialog}
      aria-label="Menu"
      onClose={() => {
        onClose();
        const button = returnFocusTo.current;
        const focused = focusedInside.current;
        focusedInside.current = null;
        if (button && button.getClientRects().length > 0) button.focus();
        else focusInstead?.(focused)?.focus();
      }}
      onClick={(event) => {
        // A click on the backdrop (the dialog element itself, outside its panel) closes it.
        if (event.target === event.currentTarget) onClose();
      }}
    >
      <Panel>
        <CloseButton type="button" onClick={onClose}>
          Close menu
        </CloseButton>
        {children}
      </Panel>
    </Dialog>
  );
}

const Dialog = styled.dialog`
  margin: 0;
  padding: 0;
  width: min(20rem, 88vw);
  max-width: none;
  height: 100%;
  max-height: none;
  border: none;
  background: transparent;

  &::backdrop {
    background: rgb(0 0 0 / 45%);
  }

  &[open] {
    animation: slide-in ${({ theme }) => theme.motion.duration}ms
      ${({ theme }) => theme.motion.easing};
  }

  ${({ theme }) => theme.media.reducedMotion} {
    &[open] {
      animation: none;
    }
  }

  @keyframes slide-in {
    from {
      transform: translateX(-100%);
    }
    to {
      transform: translateX(0);
    }
  }
`;

const Panel = styled.div`
  min-height: 100%;
  padding: ${({ theme }) => theme.space.md};
  background: ${({ theme }) => theme.color.surface};
  overflow-y: auto;
`;

const CloseButton = styled.button`
  display: block;
  margin: 0 0 ${({ theme }) => theme.space.md} auto;
  min-height: 2.5rem;
  padding: ${({ theme }) => `${theme.space.xs} ${theme.space.sm}`};
  font: inherit;
  color: ${({ theme }) => theme.color.text};
  background: transparent;
  border: 1px solid ${({ theme }) => theme.color.border};
  border-radius: ${({ theme }) => theme.radius.md};
  cursor: pointer;
`;
