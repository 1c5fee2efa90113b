// Showing the selected finding on a result screen: its mark (or box) in the text or picture, and its card.

/** A value for a CSS attribute selector, its quotes and backslashes escaped. */
export const cssAttr = (value: string) => value.replace(/["\\]/g, '\\$&');

/** Scrolls the finding's mark inside `view` to the middle and its card into the list's view. */
export function revealFinding(view: HTMLElement | null, id: string, behavior: ScrollBehavior = 'auto'): void {
  view?.querySelector(`[data-finding="${cssAttr(id)}"]`)?.scrollIntoView?.({ block: 'center', behavior });
  document
    .querySelector(`[data-testid="finding-wrap"][data-id="${cssAttr(id)}"]`)
    ?.scrollIntoView?.({ block: 'nearest' });
}
