import type { Plan } from "@hearth/contract";
import { Link } from "@tanstack/react-router";
import { Check } from "lucide-react";
import type { ReactNode } from "react";
import { Badge } from "../../ui/badge.tsx";
import { cn } from "../../ui/cn.ts";
import { FREQUENCIES, type Frequency, formatPrice, perPeriod, type SubscribeSearch } from "./frequency.ts";

const toggleLabel: Record<Frequency, string> = { monthly: "Pay Monthly", annually: "Pay Annually" };

/**
 * Pay Monthly / Pay Annually (§2.2): each is a link to the other frequency's route, so the choice
 * is in the address (back, reload and sharing keep it); the current one is marked for screen readers.
 */
export function FrequencyToggle({
  base,
  frequency,
  search,
}: {
  /** The page's path without the frequency, e.g. /subscribe. */
  base: string;
  frequency: Frequency;
  search?: SubscribeSearch;
}) {
  return (
    <nav aria-label="Billing frequency" className="inline-flex rounded-lg bg-surface-2 p-1">
      {FREQUENCIES.map((f) => (
        <Link
          key={f}
          to={`${base}/${f}`}
          search={search ?? {}}
          replace
          aria-current={f === frequency ? "page" : undefined}
          className={cn(
            "rounded-md px-4 py-1.5 text-sm font-medium transition-colors",
            f === frequency ? "bg-surface text-fg shadow-sm" : "text-muted hover:text-fg",
          )}
        >
          {toggleLabel[f]}
        </Link>
      ))}
    </nav>
  );
}

/** The plan's price for its period and what a day of it costs (§9: the monthly price / 30). */
export function PlanPrice({ plan, size = "lg" }: { plan: Plan; size?: "lg" | "md" }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="flex flex-wrap items-baseline gap-x-1.5">
        <span className={cn("font-semibold tracking-tight", size === "lg" ? "text-3xl" : "text-xl")}>
          {formatPrice(plan.price, plan.currency)}
        </span>
        <span className="text-sm text-muted">/ {perPeriod(plan.period)}</span>
      </p>
      <p className="text-sm text-muted">{formatPrice(plan.price_per_day, plan.currency)} a day</p>
      {plan.annual_tagline ? (
        <p>
          <Badge tone="success">{plan.annual_tagline}</Badge>
        </p>
      ) : null}
    </div>
  );
}

export function FeatureList({ plan }: { plan: Plan }) {
  return (
    <ul className="flex flex-col gap-2 text-sm">
      {plan.features.map((feature) => (
        <li key={feature.title} className="flex gap-2">
          <Check aria-hidden className="mt-0.5 size-4 shrink-0 text-success" />
          <span>
            {feature.title}
            {feature.new ? (
              <Badge tone="accent" className="ml-2">
                New
              </Badge>
            ) : null}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** One tier on the subscribe page: name, description, price, features and its action. */
export function PlanCard({
  plan,
  highlighted,
  label,
  action,
}: {
  plan: Plan;
  highlighted: boolean;
  /** Says why the card stands out ("Most popular", "Your pick"). */
  label?: string;
  action: ReactNode;
}) {
  const headingId = `plan-${plan.plan_id}`;
  return (
    <section
      aria-labelledby={headingId}
      data-plan={plan.plan_id}
      className={cn(
        "flex w-full flex-col gap-5 rounded-xl border bg-surface p-5 shadow-card sm:p-6",
        highlighted ? "border-accent ring-2 ring-accent" : "border-border",
      )}
    >
      <div className="flex flex-col gap-1.5">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id={headingId} className="text-lg font-semibold">
            {plan.title}
          </h2>
          {highlighted && label ? <Badge tone="accent">{label}</Badge> : null}
        </div>
        <p className="text-sm text-muted">{plan.description}</p>
      </div>
      <PlanPrice plan={plan} />
      <FeatureList plan={plan} />
      <div className="mt-auto pt-1">{action}</div>
    </section>
  );
}
