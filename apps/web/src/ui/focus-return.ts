import { useRef } from "react";

/**
 * Where focus goes back to when a dialog or sheet closes: the element that had it when it opened,
 * also for a dialog opened from code (no trigger of Radix's own to return to), which otherwise
 * leaves focus on the page body so the next Tab starts from the top (issue 20). A dialog opened
 * from a menu item returns to the menu's button, since the item is gone by then.
 */
export function openerOf(element: Element | null): HTMLElement | null {
  if (!(element instanceof HTMLElement) || element === document.body) return null;
  const menu = element.closest('[role="menu"]');
  if (menu) {
    // Radix names a menu by its trigger.
    const trigger = document.getElementById(menu.getAttribute("aria-labelledby") ?? "");
    return trigger instanceof HTMLElement ? trigger : null;
  }
  return element;
}

function focusable(element: HTMLElement | null): element is HTMLElement {
  return Boolean(element?.isConnected) && !(element as HTMLButtonElement).disabled;
}

/** onOpenAutoFocus and onCloseAutoFocus handlers for a Radix dialog's content. */
export function useReturnFocus(
  onOpenAutoFocus?: (event: Event) => void,
  onCloseAutoFocus?: (event: Event) => void,
) {
  const opener = useRef<HTMLElement | null>(null);
  return {
    onOpenAutoFocus: (event: Event) => {
      // Radix calls this before moving focus in: what has focus now opened the dialog.
      opener.current = openerOf(document.activeElement);
      onOpenAutoFocus?.(event);
    },
    onCloseAutoFocus: (event: Event) => {
      onCloseAutoFocus?.(event);
      const target = opener.current;
      opener.current = null;
      if (event.defaultPrevented || !focusable(target)) return;
      event.preventDefault();
      target.focus({ preventScroll: true });
    },
  };
}
