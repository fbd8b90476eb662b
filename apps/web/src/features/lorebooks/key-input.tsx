import { LORE_KEY_MAX, LORE_KEYS_MAX } from "@hearth/contract";
import { X } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { cn } from "../../ui/cn.ts";

interface KeyInputProps {
  id: string;
  label: string;
  hint: string;
  value: string[];
  onChange: (keys: string[]) => void;
  /** Regex keys may hold commas ("/a{1,3}/"), so a comma only separates plain keys. */
  commaSeparates: boolean;
  disabled?: boolean;
  error?: string | null;
}

/**
 * An entry's keys as chips, like the chatbot's tags: Enter (or a comma, for plain keys) adds
 * what was typed, Backspace in the empty box removes the last chip, each chip has a remove
 * button. Keys keep their case: case sensitivity is the entry's choice.
 */
export function KeyInput({
  id,
  label,
  hint,
  value,
  onChange,
  commaSeparates,
  disabled,
  error,
}: KeyInputProps) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error ?? null;

  const add = (raw: string) => {
    const keys = (commaSeparates ? raw.split(",") : [raw]).map((k) => k.trim()).filter(Boolean);
    const next = [...value];
    for (const key of keys) {
      if (next.includes(key)) continue;
      if (key.length > LORE_KEY_MAX) {
        setProblem(`A key has at most ${LORE_KEY_MAX} characters.`);
        return false;
      }
      if (next.length >= LORE_KEYS_MAX) {
        setProblem(`At most ${LORE_KEYS_MAX} keys.`);
        onChange(next);
        return false;
      }
      next.push(key);
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
          {value.length} / {LORE_KEYS_MAX}
          <span className="sr-only"> keys</span>
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
        <ul aria-label={`${label} chosen`} className="contents">
          {value.map((key) => (
            <li
              key={key}
              className="inline-flex h-7 max-w-full min-w-0 items-center gap-1 rounded-full bg-accent-soft pr-1 pl-2.5 text-sm text-accent-text"
            >
              <span className="truncate">{key}</span>
              <button
                type="button"
                disabled={disabled}
                aria-label={`Remove key ${key}`}
                onClick={() => {
                  onChange(value.filter((k) => k !== key));
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
          placeholder={value.length ? "Add a key" : "dragon, wyrm…"}
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
