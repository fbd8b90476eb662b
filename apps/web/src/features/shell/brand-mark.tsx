import { Flame } from "lucide-react";
import { useAppConfig } from "../../lib/session.ts";
import { cn } from "../../ui/cn.ts";

/** The brand's mark and name from configuration (the operator chooses both name and colour). */
export function BrandMark({ className }: { className?: string }) {
  const { brand } = useAppConfig();
  return (
    <span className={cn("inline-flex min-w-0 items-center gap-2 font-semibold tracking-tight", className)}>
      <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-accent text-accent-fg">
        <Flame aria-hidden className="size-5" />
      </span>
      <span className="truncate">{brand.name}</span>
    </span>
  );
}
