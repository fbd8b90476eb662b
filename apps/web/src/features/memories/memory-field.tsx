import { MEMORY_CONTENT_MAX } from "@hearth/contract";
import type { KeyboardEvent, Ref } from "react";
import { cn } from "../../ui/cn.ts";
import { Label } from "../../ui/label.tsx";
import { TextArea } from "../characters/form-controls.tsx";

/** Whether a memory's text may be sent: something besides spaces, at most 250 characters. */
export const memoryTextOk = (text: string) => text.trim() !== "" && text.length <= MEMORY_CONTENT_MAX;

/**
 * A memory's text box with its label and a live "x / 250" counter. The box takes more than the
 * limit (no maxLength), so a pasted text is not cut silently: the counter turns red and the
 * submit button stays off until it fits.
 */
export function MemoryField({
  id,
  label,
  value,
  onChange,
  onSubmit,
  onCancel,
  disabled,
  error,
  labelHidden,
  ref,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Ctrl+Enter (or Cmd+Enter) submits when the text is fine. */
  onSubmit: () => void;
  /** Escape cancels (an edit); the dialog is not closed by it then. */
  onCancel?: () => void;
  disabled?: boolean;
  error?: string | null;
  labelHidden?: boolean;
  ref?: Ref<HTMLTextAreaElement>;
}) {
  const over = value.length > MEMORY_CONTENT_MAX;
  const describedBy = [`${id}-count`, over ? `${id}-over` : null, error ? `${id}-error` : null]
    .filter(Boolean)
    .join(" ");

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Escape" && onCancel) {
      event.preventDefault();
      event.stopPropagation();
      onCancel();
    } else if (event.key === "Enter" && (event.ctrlKey || event.metaKey) && memoryTextOk(value)) {
      event.preventDefault();
      onSubmit();
    }
  };

  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={id} className={cn(labelHidden && "sr-only")}>
          {label}
        </Label>
        <span
          id={`${id}-count`}
          data-memory-counter
          className={cn("ml-auto text-xs tabular-nums", over ? "font-medium text-danger" : "text-muted")}
        >
          {value.length} / {MEMORY_CONTENT_MAX}
          <span className="sr-only"> characters</span>
        </span>
      </div>
      <TextArea
        ref={ref}
        id={id}
        value={value}
        rows={2}
        disabled={disabled}
        aria-invalid={over || Boolean(error) || undefined}
        aria-describedby={describedBy}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        className="min-h-16"
      />
      {over ? (
        <p id={`${id}-over`} className="text-sm text-danger">
          {value.length - MEMORY_CONTENT_MAX === 1
            ? "1 character"
            : `${value.length - MEMORY_CONTENT_MAX} characters`}{" "}
          over the limit of {MEMORY_CONTENT_MAX}.
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-danger" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  );
}
