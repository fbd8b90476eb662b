import type { InputHTMLAttributes, Ref, SelectHTMLAttributes } from "react";
import { cn } from "./cn.ts";

const fieldBase =
  "w-full rounded-lg border border-border-strong bg-surface px-3 text-base text-fg transition placeholder:text-muted/80 " +
  "hover:border-muted focus-visible:border-accent disabled:cursor-not-allowed disabled:opacity-60 " +
  "aria-invalid:border-danger sm:text-sm";

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  ref?: Ref<HTMLInputElement>;
}

/** Text input. 16 px text on phones so iOS doesn't zoom into the field on focus. */
export function Input({ className, ...props }: InputProps) {
  return <input className={cn(fieldBase, "h-10", className)} {...props} />;
}

export interface SelectProps extends SelectHTMLAttributes<HTMLSelectElement> {
  ref?: Ref<HTMLSelectElement>;
}

/** The native select: keyboard, screen-reader and phone pickers come for free. */
export function Select({ className, children, ...props }: SelectProps) {
  return (
    <select className={cn(fieldBase, "h-10 cursor-pointer pr-8", className)} {...props}>
      {children}
    </select>
  );
}
