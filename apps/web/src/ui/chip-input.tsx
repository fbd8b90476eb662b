import { X } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { cn } from "./cn.ts";

export interface ChipInputProps {
  id: string;
  /** The visible label, which names the text box. */
  label: string;
  /** Shown under the box while there is no problem or error. */
  hint: string;
  /** Names the list of chips: "Chosen tags". */
  listLabel: string;
  /** One chip, for the remove buttons and the placeholder: "tag" gives "Remove tag fantasy", "Add a tag". */
  unit: string;
  /** Many chips, after the counter for screen readers: "tags" gives "3 / 12 tags". */
  units: string;
  /** The placeholder while there are no chips yet: a few examples. */
  examples: string;
  max: number;
  /** Shown when what was typed would pass `max`; the chips that still fit are added. */
  tooMany: string;
  /** One typed item as it is kept: trimmed, and lower-cased where the field wants it. */
  normalise: (raw: string) => string;
  /** Why a new, normalised item is refused, or null when it may be added. */
  check?: (item: string) => string | null;
  /** Whether a comma separates items, as Enter does (and pasted "a, b, c" adds them all). */
  commaSeparates?: boolean;
  value: string[];
  onChange: (items: string[]) => void;
  disabled?: boolean;
  /** An error from the server for this field. */
  error?: string | null;
}

/**
 * Short strings as chips: Enter (or a comma, where it separates) adds what was typed, Backspace
 * in the empty box removes the last chip, each chip has a remove button, and a counter shows how
 * many of `max` are chosen. The chatbot's tags and a lorebook entry's keys.
 */
export function ChipInput({
  id,
  label,
  hint,
  listLabel,
  unit,
  units,
  examples,
  max,
  tooMany,
  normalise,
  check,
  commaSeparates = true,
  value,
  onChange,
  disabled,
  error,
}: ChipInputProps) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error ?? null;

  const add = (raw: string) => {
    const items = (commaSeparates ? raw.split(",") : [raw]).map(normalise).filter(Boolean);
    const next = [...value];
    for (const item of items) {
      if (next.includes(item)) continue;
      const refused = check?.(item);
      if (refused) {
        setProblem(refused);
        return false;
      }
      if (next.length >= max) {
        setProblem(tooMany);
        onChange(next);
        return false;
      }
      next.push(item);
    }
    setProblem(null);
    if (next.length !== value.length) onChange(next);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || (commaSeparates && event.key === ",")) {
      event.preventDefault();
      if (add(text)) setText("");
    } else if (event.key === "Backspace" && text === "" && value.length > 0) {
      onChange(value.slice(0, -1));
      setProblem(null);
    }
  };

  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="text-sm font-medium">
          {label}
        </label>
        <span id={`${id}-count`} className="text-xs text-muted tabular-nums">
          {value.length} / {max}
          <span className="sr-only"> {units}</span>
        </span>
      </div>
      <div
        className={cn(
          "flex min-h-10 flex-wrap items-center gap-1.5 rounded-lg border border-border-strong bg-surface px-2 py-1.5 transition",
          "hover:border-muted focus-within:border-accent focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-ring",
          shown && "border-danger",
          disabled && "opacity-60",
        )}
      >
        <ul aria-label={listLabel} className="contents">
          {value.map((item) => (
            <li
              key={item}
              className="inline-flex h-7 max-w-full min-w-0 items-center gap-1 rounded-full bg-accent-soft pr-1 pl-2.5 text-sm text-accent-text"
            >
              <span className="truncate">{item}</span>
              <button
                type="button"
                disabled={disabled}
                aria-label={`Remove ${unit} ${item}`}
                onClick={() => {
                  onChange(value.filter((other) => other !== item));
                  setProblem(null);
                }}
                className="shrink-0 rounded-full p-0.5 transition hover:bg-accent/20"
              >
                <X aria-hidden className="size-3.5" />
              </button>
            </li>
          ))}
        </ul>
        <input
          id={id}
          value={text}
          disabled={disabled}
          onChange={(event) => {
            const next = event.target.value;
            // Pasting "a, b, c" adds them all at once.
            if (commaSeparates && next.includes(",")) {
              const parts = next.split(",");
              const rest = parts.pop() ?? "";
              if (add(parts.join(","))) setText(rest);
              else setText(next.replace(/,/g, ""));
              return;
            }
            setText(next);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            if (text.trim() && add(text)) setText("");
          }}
          placeholder={value.length ? `Add a ${unit}` : examples}
          aria-invalid={shown ? true : undefined}
          aria-describedby={`${id}-count ${shown ? `${id}-error` : `${id}-hint`}`}
          className="h-7 min-w-24 flex-1 bg-transparent px-1 text-base outline-none placeholder:text-muted/80 sm:text-sm"
        />
      </div>
      {shown ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {shown}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}
