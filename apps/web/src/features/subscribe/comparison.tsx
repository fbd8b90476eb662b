import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Check, Minus } from "lucide-react";
import { Badge } from "../../ui/badge.tsx";
import { buttonClass } from "../../ui/button.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { plansQuery } from "./api.ts";
import {
  checkoutSearch,
  comparisonRows,
  type Frequency,
  formatPrice,
  perPeriod,
  plansFor,
  tierIncludes,
} from "./frequency.ts";
import { FrequencyToggle } from "./parts.tsx";

/**
 * The plan comparison (/plan-comparison/{frequency}, §2.2; open to anyone): the three tiers'
 * prices and features side by side. Each feature row names the lowest tier that has it; the
 * higher tiers include it.
 */
export function PlanComparison({ frequency }: { frequency: Frequency }) {
  const list = useQuery(plansQuery);
  const plans = list.data ? plansFor(list.data.plans, frequency) : [];
  const rows = comparisonRows(plans);
  const cell = "border-b border-border px-2 py-3 sm:px-4";

  return (
    <Page>
      <PageHeader
        title="Compare plans"
        description="What each plan brings, side by side."
        actions={<FrequencyToggle base="/plan-comparison" frequency={frequency} />}
      />
      {list.isPending ? (
        <PageSpinner label="Loading the plans" />
      ) : list.isError ? (
        <LoadErrorBanner
          title="The plans couldn't be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <section
          aria-label="Plan comparison table"
          // Narrow screens scroll the table, not the page; keyboards must reach a scrolling
          // region to scroll it (WCAG 2.1.1).
          // biome-ignore lint/a11y/noNoninteractiveTabindex: see above
          tabIndex={0}
          className="overflow-x-auto rounded-xl border border-border"
        >
          <table className="w-full min-w-[18rem] table-fixed text-left text-sm">
            <caption className="sr-only">
              Plans {frequency === "annually" ? "paid annually" : "paid monthly"}: price and features
            </caption>
            <thead>
              <tr className="bg-surface-2">
                <th scope="col" className={`${cell} w-[34%] font-medium`}>
                  Feature
                </th>
                {plans.map((plan) => (
                  <th key={plan.plan_id} scope="col" className={`${cell} font-semibold`}>
                    {plan.title}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              <tr>
                <th scope="row" className={`${cell} font-medium`}>
                  Price
                </th>
                {plans.map((plan) => (
                  <td key={plan.plan_id} className={cell}>
                    <span className="font-semibold">{formatPrice(plan.price, plan.currency)}</span>
                    <span className="text-muted"> / {perPeriod(plan.period)}</span>
                    <span className="block text-xs text-muted">
                      {formatPrice(plan.price_per_day, plan.currency)} a day
                    </span>
                  </td>
                ))}
              </tr>
              {rows.map((row) => (
                <tr key={row.title}>
                  <th scope="row" className={`${cell} font-normal`}>
                    {row.title}
                    {row.new ? (
                      <Badge tone="accent" className="ml-1.5">
                        New
                      </Badge>
                    ) : null}
                  </th>
                  {plans.map((plan) => (
                    <td key={plan.plan_id} className={cell}>
                      {tierIncludes(plan.role, row.from) ? (
                        <>
                          <Check aria-hidden className="size-4 text-success" />
                          <span className="sr-only">Included</span>
                        </>
                      ) : (
                        <>
                          <Minus aria-hidden className="size-4 text-muted" />
                          <span className="sr-only">Not included</span>
                        </>
                      )}
                    </td>
                  ))}
                </tr>
              ))}
              <tr>
                <td className="px-2 py-3 sm:px-4" />
                {plans.map((plan) => (
                  <td key={plan.plan_id} className="px-2 py-3 sm:px-4">
                    <Link
                      to="/checkout"
                      search={checkoutSearch(plan.plan_id)}
                      className={buttonClass("primary", "sm", "h-auto min-h-8 px-2 py-1 whitespace-normal")}
                    >
                      Subscribe
                      <span className="sr-only"> to {plan.title}</span>
                    </Link>
                  </td>
                ))}
              </tr>
            </tbody>
          </table>
        </section>
      )}
      <p className="mt-6 text-center text-sm">
        <Link to={`/subscribe/${frequency}`} className="text-accent-text underline underline-offset-4">
          Back to the plans
        </Link>
      </p>
    </Page>
  );
}
