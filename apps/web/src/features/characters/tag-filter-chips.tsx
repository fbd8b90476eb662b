import { X } from "lucide-react";
import { cn } from "../../ui/cn.ts";

/**
 * A row of tag toggle chips (browse, recommendations): scrolls sideways on phones, wraps on wider
 * screens; each chip says whether it is on with aria-pressed.
 */
export function TagFilterChips({
  chips,
  selected,
  onToggle,
  legend,
  className,
}: {
  chips: readonly string[];
  selected: readonly string[];
  onToggle: (tag: string) => void;
  legend: string;
  className?: string;
}) {
  if (!chips.length) return null;
  return (
    <fieldset
      className={cn(
        "-mx-4 flex min-w-0 gap-1.5 overflow-x-auto border-0 px-4 pb-1 [scrollbar-width:none] sm:mx-0 sm:flex-wrap sm:overflow-visible sm:px-0 sm:pb-0",
        className,
      )}
    >
      <legend className="sr-only">{legend}</legend>
      {chips.map((tag) => {
        const active = selected.includes(tag);
        return (
          <button
            key={tag}
            type="button"
            aria-pressed={active}
            onClick={() => onToggle(tag)}
            className={cn(
              "inline-flex h-8 shrink-0 items-center gap-1 rounded-full border px-3 text-sm whitespace-nowrap transition",
              active
                ? "border-accent bg-accent-soft text-accent-text"
                : "border-border bg-surface text-muted hover:border-border-strong hover:text-fg",
            )}
          >
            {tag}
            {active ? <X aria-hidden className="size-3.5" /> : null}
          </button>
        );
      })}
    </fieldset>
  );
}
