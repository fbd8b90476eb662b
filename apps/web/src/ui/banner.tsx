import { CircleAlert, CircleCheck, Info, TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "./cn.ts";

export type BannerTone = "info" | "success" | "warning" | "danger";

const tones: Record<BannerTone, { box: string; icon: typeof Info }> = {
  info: { box: "border-info/40 bg-info-soft", icon: Info },
  success: { box: "border-success/40 bg-success-soft", icon: CircleCheck },
  warning: { box: "border-warning/40 bg-warning-soft", icon: TriangleAlert },
  danger: { box: "border-danger/40 bg-danger-soft", icon: CircleAlert },
};

const iconColour: Record<BannerTone, string> = {
  info: "text-info",
  success: "text-success",
  warning: "text-warning",
  danger: "text-danger",
};

interface BannerProps {
  tone?: BannerTone;
  title?: ReactNode;
  children?: ReactNode;
  /** Buttons or links at the end (right on wide screens, below on phones). */
  action?: ReactNode;
  className?: string;
}

/**
 * An inline message (alert). Danger and warning are announced at once (role="alert"); the
 * others politely (role="status").
 */
export function Banner({ tone = "info", title, children, action, className }: BannerProps) {
  const { box, icon: Icon } = tones[tone];
  return (
    <div
      role={tone === "danger" || tone === "warning" ? "alert" : "status"}
      className={cn(
        "flex flex-col gap-3 rounded-lg border px-4 py-3 text-sm sm:flex-row sm:items-center",
        box,
        className,
      )}
    >
      <div className="flex min-w-0 flex-1 gap-3">
        <Icon aria-hidden className={cn("mt-0.5 size-4 shrink-0", iconColour[tone])} />
        <div className="min-w-0 flex-1">
          {title ? <p className="font-medium text-fg">{title}</p> : null}
          {children ? <div className="text-fg/90">{children}</div> : null}
        </div>
      </div>
      {action ? <div className="flex shrink-0 gap-2 pl-7 sm:pl-0">{action}</div> : null}
    </div>
  );
}
