import type { LabelHTMLAttributes, ReactNode } from "react";
import { cn } from "./cn.ts";

/** A form label; `htmlFor` is required so every label names its control. */
export function Label({
  className,
  htmlFor,
  children,
  ...props
}: LabelHTMLAttributes<HTMLLabelElement> & { htmlFor: string }) {
  return (
    <label htmlFor={htmlFor} className={cn("text-sm font-medium text-fg", className)} {...props}>
      {children}
    </label>
  );
}

interface FieldProps {
  id: string;
  label: string;
  /** Validation message; it is announced and linked to the control with aria-describedby. */
  error?: string | null;
  hint?: ReactNode;
  children: ReactNode;
  className?: string;
}

/** A label, a control and its hint or error, wired together for assistive technology. */
export function Field({ id, label, error, hint, children, className }: FieldProps) {
  return (
    <div className={cn("flex flex-col gap-1.5", className)}>
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p id={`${id}-error`} className="text-sm text-danger" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="text-sm text-muted">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** Props to spread on the control inside a Field. */
export function fieldControlProps(id: string, error?: string | null, hasHint?: boolean) {
  return {
    id,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? `${id}-error` : hasHint ? `${id}-hint` : undefined,
  } as const;
}
