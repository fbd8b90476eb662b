import { type Me, type Plan, roleTitle } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PackageOpen } from "lucide-react";
import { useEffect, useRef } from "react";
import { useAppConfig, useMe } from "../../lib/session.ts";
import { Banner } from "../../ui/banner.tsx";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { useSite } from "../site/api.ts";
import { plansQuery } from "./api.ts";
import {
  checkoutSearch,
  type Frequency,
  highlightedRole,
  plansFor,
  type SubscribeSearch,
} from "./frequency.ts";
import { FrequencyToggle, PlanCard } from "./parts.tsx";

/** A member whose account has a paid tier now (cancelled and grace keep it until the period ends). */
export function hasPaidPlan(me: Me | null): boolean {
  return me !== null && me.role !== "free" && ["active", "cancelled", "grace"].includes(me.status);
}

function PlanAction({ plan, me, coupon }: { plan: Plan; me: Me | null; coupon?: string }) {
  // A subscriber changes plans in the portal: a second checkout would start a second subscription.
  if (hasPaidPlan(me)) {
    const current = me?.role === plan.role;
    return (
      <Button asChild variant={current ? "outline" : "secondary"} className="w-full">
        <Link to="/portal">
          {current ? "Manage your plan" : "Change plan"}
          <span className="sr-only"> to {plan.title}</span>
        </Link>
      </Button>
    );
  }
  return (
    <Button asChild className="w-full">
      <Link to="/checkout" search={checkoutSearch(plan.plan_id, coupon)}>
        Subscribe
        <span className="sr-only"> to {plan.title}</span>
      </Link>
    </Button>
  );
}

/**
 * The subscribe page (accounts-billing-admin §2.2): the three tiers' cards for the route's
 * frequency, Pay Monthly / Pay Annually, and each card's Subscribe to the checkout. `?plan=<role>`
 * (from an upgrade prompt) highlights that tier and brings it into view.
 */
export function SubscribePage({ frequency, search }: { frequency: Frequency; search: SubscribeSearch }) {
  const me = useMe();
  const { brand } = useAppConfig();
  const list = useQuery(plansQuery);
  const crypto = Object.keys(useSite()?.crypto_links ?? {}).length > 0;
  const plans = list.data ? plansFor(list.data.plans, frequency) : [];
  const highlighted = list.data
    ? highlightedRole(plans, search.plan ?? null, list.data.plans, list.data.default_plan_id)
    : null;
  const picked = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (search.plan && highlighted === search.plan) picked.current?.scrollIntoView({ block: "nearest" });
  }, [search.plan, highlighted]);

  return (
    <Page>
      <PageHeader
        title="Choose your plan"
        description={`Support ${brand.name} and unlock more of it. Cancel any time.`}
        actions={<FrequencyToggle base="/subscribe" frequency={frequency} search={search} />}
      />
      {hasPaidPlan(me) && me ? (
        <Banner
          tone="info"
          className="mb-6"
          title={`You're subscribed to ${roleTitle[me.role]}.`}
          action={
            <Button asChild size="sm" variant="outline">
              <Link to="/portal">Manage Subscription</Link>
            </Button>
          }
        >
          Change your plan or billing from the subscription page.
        </Banner>
      ) : null}
      {list.isPending ? (
        <PageSpinner label="Loading the plans" />
      ) : list.isError ? (
        <LoadErrorBanner
          title="The plans couldn't be loaded"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : plans.length === 0 ? (
        <EmptyState icon={PackageOpen} title="No plans here" headingLevel={2}>
          {frequency === "annually"
            ? "This site offers no yearly plans. Try paying monthly."
            : "This site offers no monthly plans. Try paying annually."}
        </EmptyState>
      ) : (
        <div className="grid gap-4 md:grid-cols-3">
          {plans.map((plan) => (
            <div key={plan.plan_id} ref={plan.role === highlighted ? picked : undefined} className="flex">
              <PlanCard
                plan={plan}
                highlighted={plan.role === highlighted}
                label={search.plan === plan.role ? "Your pick" : "Most popular"}
                action={<PlanAction plan={plan} me={me} coupon={search.coupon} />}
              />
            </div>
          ))}
        </div>
      )}
      <p className="mt-8 text-center text-sm text-muted">
        <Link to={`/plan-comparison/${frequency}`} className="text-accent-text underline underline-offset-4">
          Compare the plans side by side
        </Link>
        {crypto ? (
          <>
            {" · "}
            <Link to="/subscribe-crypto" className="text-accent-text underline underline-offset-4">
              Pay with crypto
            </Link>
          </>
        ) : null}
        {" · "}
        <Link to="/refund" className="text-accent-text underline underline-offset-4">
          Refund Policy
        </Link>
      </p>
    </Page>
  );
}
