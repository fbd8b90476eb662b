import type { Plan } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Button } from "../../ui/button.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { plansQuery } from "./api.ts";
import { checkoutSearch, plansFor, TIERS } from "./frequency.ts";
import { FeatureList, PlanPrice } from "./parts.tsx";

/** One tier with both of its prices, each with its own Subscribe. */
function TierRow({ monthly, annual }: { monthly?: Plan; annual?: Plan }) {
  const tier = monthly ?? annual;
  if (!tier) return null;
  const headingId = `old-plan-${tier.role}`;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-xl border border-border bg-surface p-5 shadow-card sm:p-6"
    >
      <div className="flex flex-col gap-1">
        <h2 id={headingId} className="text-lg font-semibold">
          {tier.title}
        </h2>
        <p className="text-sm text-muted">{tier.description}</p>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        {[monthly, annual].map((plan) =>
          plan ? (
            <div key={plan.plan_id} className="flex flex-col gap-3 rounded-lg bg-surface-2 p-4">
              <PlanPrice plan={plan} size="md" />
              <Button asChild size="sm" className="self-start">
                <Link to="/checkout" search={checkoutSearch(plan.plan_id)}>
                  {plan.period === "annual" ? "Subscribe annually" : "Subscribe monthly"}
                  <span className="sr-only"> to {plan.title}</span>
                </Link>
              </Button>
            </div>
          ) : null,
        )}
      </div>
      <FeatureList plan={tier} />
    </section>
  );
}

/** The older subscribe layout (/subscribeOld, §2.2; open): the same plans in one column, both prices per tier. */
export function SubscribeOld() {
  const list = useQuery(plansQuery);
  const monthly = list.data ? plansFor(list.data.plans, "monthly") : [];
  const annual = list.data ? plansFor(list.data.plans, "annually") : [];
  const roles = TIERS.filter((role) => [...monthly, ...annual].some((p) => p.role === role));
  return (
    <Page width="medium">
      <PageHeader title="Subscribe" description="Pick a plan and how often to pay." />
      {list.isPending ? (
        <PageSpinner label="Loading the plans" />
      ) : list.isError ? (
        <LoadErrorBanner
          title="The plans couldn't be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <div className="flex flex-col gap-4">
          {roles.map((role) => (
            <TierRow
              key={role}
              monthly={monthly.find((p) => p.role === role)}
              annual={annual.find((p) => p.role === role)}
            />
          ))}
        </div>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to="/plan-comparison/monthly" className="text-accent-text underline underline-offset-4">
          Compare the plans side by side
        </Link>
      </p>
    </Page>
  );
}
