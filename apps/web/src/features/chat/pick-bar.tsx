import { Check, Trash2, X } from "lucide-react";
import { useEffect } from "react";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import type { PickMode } from "./pick-frame.tsx";

interface PickBarProps {
  mode: PickMode;
  /** How many messages the choice covers (0 until one is chosen). */
  count: number;
  busy: boolean;
  error: string | null;
  onCancel: () => void;
  onConfirm: () => void;
}

const texts: Record<PickMode, { title: string; none: string; some: (n: number) => string }> = {
  remove: {
    title: "Remove Messages",
    none: "Choose the first message to remove. It and every message after it will be removed.",
    some: (n) => `${n === 1 ? "1 message" : `${n} messages`} will be removed for good.`,
  },
  clone: {
    title: "Clone Partially",
    none: "Choose the last message to include in the copy.",
    some: (n) => `The copy will start with ${n === 1 ? "1 message" : `these ${n} messages`}.`,
  },
};

/**
 * Takes the input bar's place in the remove-messages and partial-clone modes (§4): what to do,
 * Cancel, and the action, which stays disabled until a message is chosen. Esc cancels.
 */
export function PickBar({ mode, count, busy, error, onCancel, onConfirm }: PickBarProps) {
  const text = texts[mode];
  const chosen = count > 0;

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented || busy) return;
      if (document.querySelector('[role="dialog"], [role="menu"]')) return;
      onCancel();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [busy, onCancel]);

  return (
    <section
      aria-label={text.title}
      data-pick-bar={mode}
      className="flex flex-col gap-2 rounded-2xl border border-border-strong bg-surface p-3 shadow-card"
    >
      {error ? <Banner tone="danger">{error}</Banner> : null}
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center">
        <div className="min-w-0 flex-1">
          <p className="text-sm font-semibold">{text.title}</p>
          <p className="text-sm text-muted" aria-live="polite">
            {chosen ? text.some(count) : text.none}
          </p>
        </div>
        <div className="flex shrink-0 gap-2 [&>*]:flex-1 sm:[&>*]:flex-none">
          <Button variant="outline" onClick={onCancel} disabled={busy}>
            <X aria-hidden />
            {mode === "clone" ? "Back" : "Cancel"}
          </Button>
          {mode === "remove" ? (
            <Button variant="danger" onClick={onConfirm} disabled={!chosen} loading={busy}>
              {busy ? null : <Trash2 aria-hidden />}
              Remove
            </Button>
          ) : (
            <Button onClick={onConfirm} disabled={!chosen}>
              <Check aria-hidden />
              Use this message
            </Button>
          )}
        </div>
      </div>
    </section>
  );
}
