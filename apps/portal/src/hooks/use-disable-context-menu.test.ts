import { renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { isEditable, useDisableContextMenu } from './use-disable-context-menu';

afterEach(() => {
  document.body.innerHTML = '';
});

function refused(target: Element): boolean {
  const event = new MouseEvent('contextmenu', { bubbles: true, cancelable: true });
  target.dispatchEvent(event);
  return event.defaultPrevented;
}

describe('useDisableContextMenu', () => {
  // Found by the twenty-third session's portal probe: spell-check suggestions and Paste were gone from every field.
  it('should refuse the menu except where the user types', () => {
    document.body.innerHTML = `
      <p id="text">Terms <span id="inner">here</span></p>
      <input id="input"><textarea id="area"></textarea><select id="select"><option>a</option></select>
      <div contenteditable="true" id="editable"><b id="bold">x</b><span contenteditable="false" id="fixed">y</span></div>`;
    const { unmount } = renderHook(() => useDisableContextMenu());
    const byId = (id: string) => document.getElementById(id)!;

    for (const id of ['text', 'inner', 'fixed']) expect(refused(byId(id)), id).toBe(true);
    for (const id of ['input', 'area', 'select', 'editable', 'bold']) {
      expect(refused(byId(id)), id).toBe(false);
    }
    unmount();
    expect(refused(byId('text'))).toBe(false);
  });

  it('should take nothing that is not an element for a field', () => {
    expect(isEditable(null)).toBe(false);
    expect(isEditable(document)).toBe(false);
    expect(isEditable(window)).toBe(false);
  });
});
