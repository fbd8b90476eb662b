import { useEffect } from "react";
import type { ChatRow } from "./chat-state.ts";

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName);
}

/**
 * Left and right arrows step through the last reply's alternatives, unless a dialog, a menu or a
 * text field has the keyboard. `active`: no reply is being written, nothing blocks the chat and
 * no messages are being picked.
 */
export function useAlternativeKeys(
  lastBot: ChatRow | null,
  active: boolean,
  selectAlternative: (row: ChatRow, index: number) => Promise<void>,
) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
      if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey || event.defaultPrevented) return;
      if (isEditable(event.target) || isEditable(document.activeElement)) return;
      if (document.querySelector('[role="dialog"], [role="menu"]')) return;
      if (!lastBot || !active) return;
      const { alternative_index: index, alternative_count: count } = lastBot.message;
      const next = event.key === "ArrowLeft" ? index - 1 : index + 1;
      if (next < 0 || next >= count) return;
      event.preventDefault();
      void selectAlternative(lastBot, next);
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [lastBot, active, selectAlternative]);
}
