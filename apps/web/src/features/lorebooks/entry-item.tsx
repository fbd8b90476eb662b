import { ArrowDown, ArrowUp, ChevronRight, Copy, Trash2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Badge } from "../../ui/badge.tsx";
import { Button } from "../../ui/button.tsx";
import { cn } from "../../ui/cn.ts";
import { type EntryValues, entryTitle, keysSummary, positionBadge } from "./book-values.ts";
import { EntryForm } from "./entry-form.tsx";

interface EntryItemProps {
  entry: EntryValues;
  /** Its place in prompt order, for "Entry 3" when it has neither a name nor a key. */
  index: number;
  count: number;
  expanded: boolean;
  errors: Record<string, string>;
  onToggle: () => void;
  onChange: (entry: EntryValues) => void;
  onMove: (direction: -1 | 1) => void;
  onDuplicate: () => void;
  onDelete: () => void;
}

/** One entry of the list: its summary and tools, and its form when opened. */
export function EntryItem({
  entry,
  index,
  count,
  expanded,
  errors,
  onToggle,
  onChange,
  onMove,
  onDuplicate,
  onDelete,
}: EntryItemProps) {
  const panelId = useId();
  const [confirming, setConfirming] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  const deleteButton = useRef<HTMLButtonElement>(null);
  const title = entryTitle(entry, index);
  const hasErrors = Object.keys(errors).length > 0;

  useEffect(() => {
    if (confirming) confirmButton.current?.focus();
  }, [confirming]);

  const cancelDelete = () => {
    setConfirming(false);
    requestAnimationFrame(() => deleteButton.current?.focus());
  };

  return (
    <li
      className={cn(
        "flex flex-col rounded-lg border bg-surface",
        hasErrors ? "border-danger/60" : "border-border",
        !entry.enabled && "bg-surface-2/60",
      )}
      data-lore-entry={title}
    >
      <div className="flex flex-col gap-2 p-2 sm:flex-row sm:items-center sm:gap-3 sm:p-3">
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <input
            type="checkbox"
            className="ml-1 size-4 shrink-0 accent-(--brand-accent)"
            checked={entry.enabled}
            aria-label={`${title} enabled`}
            onChange={(event) => onChange({ ...entry, enabled: event.target.checked })}
          />
          <button
            type="button"
            aria-expanded={expanded}
            aria-controls={panelId}
            onClick={onToggle}
            className="flex min-w-0 flex-1 items-center gap-2 rounded-md px-1.5 py-1 text-left transition hover:bg-surface-2"
          >
            <ChevronRight aria-hidden className={cn("size-4 shrink-0 transition", expanded && "rotate-90")} />
            <span className="flex min-w-0 flex-col">
              <span className={cn("truncate text-sm font-medium", !entry.enabled && "text-muted")}>
                {title}
              </span>
              <span className="truncate text-xs text-muted">{keysSummary(entry)}</span>
            </span>
          </button>
        </div>
        <div className="flex flex-wrap items-center justify-between gap-2 pl-7 sm:justify-end sm:pl-0">
          <span className="flex flex-wrap gap-1">
            {hasErrors ? <Badge tone="danger">Needs a fix</Badge> : null}
            {!entry.enabled ? <Badge>Off</Badge> : null}
            {entry.constant ? <Badge tone="accent">Constant</Badge> : null}
            <Badge tone="info">
              {positionBadge[entry.position]}
              {entry.position === "at_depth" && Number.isFinite(entry.depth) ? ` ${entry.depth}` : ""}
            </Badge>
          </span>
          <span className="flex gap-0.5">
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Move ${title} up`}
              disabled={index === 0}
              onClick={() => onMove(-1)}
            >
              <ArrowUp aria-hidden />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Move ${title} down`}
              disabled={index === count - 1}
              onClick={() => onMove(1)}
            >
              <ArrowDown aria-hidden />
            </Button>
            <Button
              variant="ghost"
              size="icon"
              className="size-8"
              aria-label={`Duplicate ${title}`}
              onClick={onDuplicate}
            >
              <Copy aria-hidden />
            </Button>
            <Button
              ref={deleteButton}
              variant="ghost"
              size="icon"
              className="size-8 text-danger"
              aria-label={`Delete ${title}`}
              onClick={() => setConfirming(true)}
            >
              <Trash2 aria-hidden />
            </Button>
          </span>
        </div>
      </div>
      {confirming ? (
        // biome-ignore lint/a11y/noStaticElementInteractions: Escape from either button cancels the question, not an enclosing dialog
        <span
          data-escape-local
          onKeyDown={(event) => {
            if (event.key === "Escape") {
              event.stopPropagation();
              cancelDelete();
            }
          }}
          className="mx-2 mb-2 flex flex-col gap-2 rounded-md border border-danger/40 bg-danger-soft p-3 text-sm sm:mx-3 sm:flex-row sm:items-center sm:justify-between"
        >
          <span>Delete {title}? Saving makes it final.</span>
          <span className="flex gap-2">
            <Button ref={confirmButton} variant="danger" size="sm" onClick={onDelete}>
              Delete entry
            </Button>
            <Button variant="outline" size="sm" onClick={cancelDelete}>
              Cancel
            </Button>
          </span>
        </span>
      ) : null}
      {expanded ? (
        <div id={panelId} className="border-t border-border p-3 sm:p-4">
          <EntryForm entry={entry} errors={errors} onChange={onChange} />
        </div>
      ) : null}
    </li>
  );
}
