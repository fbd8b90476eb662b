import { LoaderCircle } from "lucide-react";
import { cn } from "./cn.ts";

const sizes = { sm: "size-4", md: "size-6", lg: "size-10" } as const;

interface SpinnerProps {
  size?: keyof typeof sizes;
  /** Read by screen readers; null when the surrounding control already says what's happening. */
  label?: string | null;
  className?: string;
}

export function Spinner({ size = "md", label = "Loading", className }: SpinnerProps) {
  return (
    <span role={label ? "status" : undefined} className={cn("inline-flex", className)}>
      <LoaderCircle aria-hidden className={cn("animate-spin text-current", sizes[size])} />
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}

/** A centred spinner for a region that is still loading. */
export function PageSpinner({ label = "Loading" }: { label?: string }) {
  return (
    <div className="flex min-h-[40vh] flex-1 items-center justify-center text-muted" data-page-spinner>
      <Spinner size="lg" label={label} />
    </div>
  );
}
