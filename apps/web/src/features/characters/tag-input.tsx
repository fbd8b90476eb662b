import { characterLimits, tagPattern, tagRuleMessage, tooManyTagsMessage } from "@hearth/contract/labels";
import { X } from "lucide-react";
import { type KeyboardEvent, useState } from "react";
import { cn } from "../../ui/cn.ts";

interface TagInputProps {
  id: string;
  value: string[];
  onChange: (tags: string[]) => void;
  disabled?: boolean;
  /** An error from the server for this field. */
  error?: string | null;
}

/** Normalised like the contract's tag schema: trimmed, lower case. */
function normalise(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, " ");
}

/**
 * Tags as chips: Enter or comma adds what was typed, Backspace in the empty box removes the last
 * chip, each chip has a remove button. At most 12 (chat-and-characters §5).
 */
export function TagInput({ id, value, onChange, disabled, error }: TagInputProps) {
  const [text, setText] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const shown = problem ?? error ?? null;

  const add = (raw: string) => {
    const tags = raw.split(",").map(normalise).filter(Boolean);
    if (tags.length === 0) return true;
    const next = [...value];
    for (const tag of tags) {
      if (next.includes(tag)) continue;
      if (tag.length > characterLimits.tag) {
        setProblem(`A tag has at most ${characterLimits.tag} characters.`);
        return false;
      }
      if (!tagPattern.test(tag)) {
        setProblem(tagRuleMessage);
        return false;
      }
      if (next.length >= characterLimits.tags) {
        setProblem(tooManyTagsMessage);
        onChange(next);
        return false;
      }
      next.push(tag);
    }
    setProblem(null);
    onChange(next);
    return true;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter" || event.key === ",") {
      event.preventDefault();
      if (add(text)) setText("");
    } else if (event.key === "Backspace" && text === "" && value.length > 0) {
      onChange(value.slice(0, -1));
      setProblem(null);
    }
  };

  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor={id} className="text-sm font-medium">
          Tags
        </label>
        <span id={`${id}-count`} className="text-xs text-muted tabular-nums">
          {value.length} / {characterLimits.tags}
          <span className="sr-only"> tags</span>
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
        <ul aria-label="Chosen tags" className="contents">
          {value.map((tag) => (
            <li
              key={tag}
              className="inline-flex h-7 items-center gap-1 rounded-full bg-accent-soft pr-1 pl-2.5 text-sm text-accent-text"
            >
              {tag}
              <button
                type="button"
                disabled={disabled}
                aria-label={`Remove tag ${tag}`}
                onClick={() => {
                  onChange(value.filter((t) => t !== tag));
                  setProblem(null);
                }}
                className="rounded-full p-0.5 transition hover:bg-accent/20"
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
            if (next.includes(",")) {
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
          placeholder={value.length ? "Add a tag" : "fantasy, adventure, mentor…"}
          aria-invalid={shown ? true : undefined}
          aria-describedby={`${id}-count ${shown ? `${id}-error` : `${id}-hint`}`}
          className="h-7 min-w-32 flex-1 bg-transparent px-1 text-base outline-none placeholder:text-muted/80 sm:text-sm"
        />
      </div>
      {shown ? (
        <p id={`${id}-error`} role="alert" className="text-sm text-danger">
          {shown}
        </p>
      ) : (
        <p id={`${id}-hint`} className="text-sm text-muted">
          Press Enter or type a comma after each tag. Tags help people find your chatbot.
        </p>
      )}
    </div>
  );
}
