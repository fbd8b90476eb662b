import { ChevronLeft, ChevronRight } from "lucide-react";
import type { ReactNode } from "react";
import type { ChatRow } from "./chat-state.ts";
import { iconButton } from "./message-menu.tsx";

/** What the last bot message offers: regenerate, continue and its alternatives. */
export interface LastBotActions {
  /** Generation actions are off while a reply is written or after a blocking error. */
  enabled: boolean;
  switching: boolean;
  onRegenerate: () => void;
  onContinue: () => void;
  onSelectAlternative: (row: ChatRow, index: number) => void;
}

/**
 * A button that is off while a reply is written: aria-disabled rather than disabled, so it keeps
 * the keyboard focus (a disabled button drops it) and the row doesn't change under the pointer.
 */
export function ActionButton({
  label,
  title,
  off,
  onClick,
  children,
}: {
  label: string;
  title?: string;
  off: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      className={iconButton}
      aria-label={label}
      title={title ?? label}
      aria-disabled={off || undefined}
      onClick={off ? undefined : onClick}
    >
      {children}
    </button>
  );
}

/** Steps through the last reply's alternatives (shown only when it has more than one). */
export function Alternatives({ row, actions }: { row: ChatRow; actions: LastBotActions }) {
  const { alternative_index: index, alternative_count: count } = row.message;
  if (count < 2) return null;
  const off = !actions.enabled || actions.switching;
  return (
    <span className="inline-flex items-center">
      <ActionButton
        label="Previous alternative"
        title="Previous alternative (←)"
        off={off || index === 0}
        onClick={() => actions.onSelectAlternative(row, index - 1)}
      >
        <ChevronLeft aria-hidden />
      </ActionButton>
      <span className="min-w-8 text-center text-xs tabular-nums text-muted">
        <span aria-hidden data-alternative-counter>
          {index + 1}/{count}
        </span>
        <span className="sr-only">
          Alternative {index + 1} of {count}
        </span>
      </span>
      <ActionButton
        label="Next alternative"
        title="Next alternative (→)"
        off={off || index >= count - 1}
        onClick={() => actions.onSelectAlternative(row, index + 1)}
      >
        <ChevronRight aria-hidden />
      </ActionButton>
    </span>
  );
}
