import type { LucideIcon } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn.ts";

interface EmptyStateProps {
  icon: LucideIcon;
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  className?: string;
  /** Heading level that fits the page outline. */
  headingLevel?: 2 | 3;
}

/** What a list shows when it has nothing in it yet: say so honestly, and what comes next. */
export function EmptyState({
  icon: Icon,
  title,
  children,
  action,
  className,
  headingLevel = 3,
}: EmptyStateProps) {
  const Heading = headingLevel === 2 ? "h2" : "h3";
  return (
    <div
      className={cn(
        "flex flex-col items-center gap-3 rounded-xl border border-dashed border-border-strong px-6 py-12 text-center",
        className,
      )}
    >
      <span className="flex size-12 items-center justify-center rounded-full bg-accent-soft text-accent-text">
        <Icon aria-hidden className="size-6" />
      </span>
      <Heading className="text-base font-semibold">{title}</Heading>
      {children ? <div className="max-w-md text-sm text-muted">{children}</div> : null}
      {action ? <div className="mt-2 flex flex-wrap justify-center gap-2">{action}</div> : null}
    </div>
  );
}
