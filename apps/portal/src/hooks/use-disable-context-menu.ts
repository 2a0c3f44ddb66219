import { useEffect } from 'react';

/** Right-click is disabled on the hub (spec §1). */
export function useDisableContextMenu() {
  useEffect(() => {
    const prevent = (event: MouseEvent) => event.preventDefault();
    document.addEventListener('contextmenu', prevent);
    return () => document.removeEventListener('contextmenu', prevent);
  }, []);
}
