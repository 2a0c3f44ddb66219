/**
 * Whether a click follows its link in this tab: the main button with no modifier (Ctrl, ⌘, Shift or Alt open it in a
 * new tab or window, or download it).
 */
export function isPlainClick(event: {
  button: number;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}): boolean {
  return event.button === 0 && !event.ctrlKey && !event.metaKey && !event.shiftKey && !event.altKey;
}
