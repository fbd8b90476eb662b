import type { ReactNode } from "react";
import { cn } from "../../ui/cn.ts";

/** Choosing a message in the list: the start of a removal, or the last message of a partial clone. */
export type PickMode = "remove" | "clone";

/** This row in a pick mode: the one chosen, one that goes with it, or neither. */
export type PickState = "chosen" | "included" | null;

const pickLabels: Record<PickMode, { button: string; chosen: string }> = {
  remove: { button: "Remove from this message", chosen: "Removed from here" },
  clone: { button: "Copy up to this message", chosen: "Last message in the copy" },
};

/** In a pick mode the whole row is one button; the chosen row and the ones going with it are tinted. */
export function PickFrame({
  messageId,
  mode,
  picked,
  onPick,
  children,
}: {
  messageId: string;
  mode: PickMode;
  picked: PickState;
  onPick: ((messageId: string) => void) | null;
  children: ReactNode;
}) {
  const tint =
    picked === null
      ? "border-transparent"
      : mode === "remove"
        ? "border-danger/50 bg-danger-soft"
        : "border-accent/50 bg-accent-soft/60";
  return (
    <div
      className={cn("relative -mx-2 rounded-xl border px-2 py-2 transition-colors", tint)}
      data-picked={picked ?? undefined}
    >
      <div className="pointer-events-none">{children}</div>
      {picked === "chosen" ? (
        <span
          className={cn(
            "pointer-events-none absolute -top-2.5 right-3 rounded-full px-2 text-xs font-medium",
            mode === "remove" ? "bg-danger text-danger-fg" : "bg-accent text-accent-fg",
          )}
        >
          {pickLabels[mode].chosen}
        </span>
      ) : null}
      {onPick ? (
        <button
          type="button"
          className="absolute inset-0 z-10 cursor-pointer rounded-xl hover:bg-fg/5"
          aria-label={pickLabels[mode].button}
          aria-pressed={picked === "chosen"}
          data-pick-message={messageId}
          onClick={() => onPick(messageId)}
        />
      ) : null}
    </div>
  );
}
