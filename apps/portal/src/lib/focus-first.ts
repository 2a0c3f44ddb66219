/**
 * Focuses the element that comes first in the document among `elements` (the fields to fix, gathered from several
 * checks), skipping the missing ones: a form's errors are fixed from the top.
 */
export function focusFirstInDocumentOrder(
  elements: readonly (HTMLElement | null | undefined)[],
): void {
  elements
    .filter((element): element is HTMLElement => element != null)
    .sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1))[0]
    ?.focus();
}
