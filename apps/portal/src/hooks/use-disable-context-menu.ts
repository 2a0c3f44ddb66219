import { useEffect } from 'react';

/**
 * Right-click is disabled on the hub (spec §1): its layout calls this, the login page does not. Fields the user
 * types in keep their menu (and Shift+F10's): found by the twenty-third session's portal probe, the menu was
 * blocked everywhere, the login page and every field included, which took spell-check suggestions and Paste
 * away from anyone who uses them from there.
 */
export function useDisableContextMenu() {
  useEffect(() => {
    const prevent = (event: MouseEvent) => {
      if (!isEditable(event.target)) event.preventDefault();
    };
    document.addEventListener('contextmenu', prevent);
    return () => document.removeEventListener('contextmenu', prevent);
  }, []);
}

/** Whether `target` is, or is inside, something the user types in: a form field or editable content. */
export function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, textarea, select') !== null) return true;
  // The nearest element that says whether it is editable decides (contenteditable="false" inside editable text).
  const editable = target.closest('[contenteditable]');
  return editable !== null && editable.getAttribute('contenteditable')?.toLowerCase() !== 'false';
}
