import type { ReactNode, Ref, TextareaHTMLAttributes } from "react";
import { cn } from "../../ui/cn.ts";
import { Label } from "../../ui/label.tsx";
import { exactCount } from "./format.ts";

/** Same look as ui/input's fields; grows with its content up to a screenful. */
export function TextArea({
  className,
  ...props
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  return (
    <textarea
      className={cn(
        "field-sizing-content min-h-24 max-h-[60vh] w-full rounded-lg border border-border-strong bg-surface px-3 py-2 text-base leading-relaxed text-fg transition",
        "placeholder:text-muted/80 hover:border-muted focus-visible:border-accent disabled:cursor-not-allowed disabled:opacity-60",
        "aria-invalid:border-danger sm:text-sm",
        className,
      )}
      {...props}
    />
  );
}

interface CountedFieldProps {
  id: string;
  label: string;
  /** Current length and the contract's limit: shown as "12 / 200" beside the label. */
  length?: number;
  max?: number;
  error?: string | null;
  hint?: ReactNode;
  optional?: boolean;
  children: ReactNode;
  className?: string;
}

/**
 * A label (with a character counter), a control, and its hint and error, wired for assistive
 * technology like ui/label's Field. Spread `describedBy(id, ...)` on the control.
 */
export function CountedField({
  id,
  label,
  length,
  max,
  error,
  hint,
  optional,
  children,
  className,
}: CountedFieldProps) {
  const over = max !== undefined && length !== undefined && length > max;
  const near = max !== undefined && length !== undefined && length > max * 0.9;
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <div className="flex items-baseline justify-between gap-3">
        <Label htmlFor={id}>
          {label}
          {optional ? <span className="ml-1.5 font-normal text-muted">(optional)</span> : null}
        </Label>
        {max !== undefined && length !== undefined ? (
          <span
            id={`${id}-count`}
            className={cn(
              "text-xs tabular-nums",
              over ? "text-danger" : near ? "text-warning" : "text-muted",
            )}
          >
            {exactCount(length)} / {exactCount(max)}
            <span className="sr-only"> characters</span>
          </span>
        ) : null}
      </div>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-danger" role="alert">
          {error}
        </p>
      ) : null}
      {hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** Props for the control inside a CountedField. */
export function describedBy(id: string, opts: { error?: string | null; hint?: boolean; count?: boolean }) {
  const ids = [
    opts.error ? `${id}-error` : null,
    opts.hint ? `${id}-hint` : null,
    opts.count ? `${id}-count` : null,
  ];
  const joined = ids.filter(Boolean).join(" ");
  return {
    id,
    "aria-invalid": opts.error ? true : undefined,
    "aria-describedby": joined || undefined,
  } as const;
}

/** A checkbox with its label and an explanation under it. */
export function CheckboxField({
  id,
  label,
  hint,
  checked,
  disabled,
  onChange,
}: {
  id: string;
  label: string;
  hint?: string;
  checked: boolean;
  disabled?: boolean;
  onChange: (checked: boolean) => void;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label
        htmlFor={id}
        className="flex cursor-pointer items-center gap-3 text-sm font-medium has-disabled:cursor-not-allowed has-disabled:opacity-60"
      >
        <input
          id={id}
          type="checkbox"
          className="size-4 accent-(--brand-accent)"
          checked={checked}
          disabled={disabled}
          aria-describedby={hint ? `${id}-hint` : undefined}
          onChange={(event) => onChange(event.target.checked)}
        />
        {label}
      </label>
      {hint ? (
        <p id={`${id}-hint`} className="pl-7 text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A titled group of form fields. */
export function FormSection({
  title,
  description,
  children,
  id,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, "-")}-heading`;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-5 rounded-xl border border-border bg-surface p-4 sm:p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-base font-semibold">
          {title}
        </h2>
        {description ? <p className="text-sm text-muted">{description}</p> : null}
      </div>
      {children}
    </section>
  );
}
