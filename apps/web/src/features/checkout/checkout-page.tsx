import type { CheckoutOptions, Plan } from "@hearth/contract";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { PackageSearch, Store } from "lucide-react";
import type { ReactNode } from "react";
import { useMe } from "../../lib/session.ts";
import { Button } from "../../ui/button.tsx";
import { EmptyState } from "../../ui/empty-state.tsx";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";
import { LoadErrorBanner } from "../shell/load-error-banner.tsx";
import { plansQuery } from "../subscribe/api.ts";
import { checkoutOptionsQuery, countriesQuery } from "./api.ts";
import { CheckoutForm } from "./checkout-form.tsx";
import { type CheckoutSearch, type MethodId, SUPPORTED_METHODS } from "./rules.ts";

/** The methods this page can take, in the server's order: card only with a card provider. */
export function usableMethods(options: CheckoutOptions): { id: MethodId; label: string }[] {
  return options.payment_methods.flatMap((m) => {
    if (!(SUPPORTED_METHODS as readonly string[]).includes(m.id)) return [];
    if (m.id === "card" && !options.card) return [];
    return [{ id: m.id as MethodId, label: m.label }];
  });
}

function Shell({ plan, children }: { plan?: Plan; children: ReactNode }) {
  return (
    <Page>
      <PageHeader
        title="Checkout"
        description={
          plan ? `${plan.title}, billed ${plan.period === "annual" ? "yearly" : "monthly"}.` : undefined
        }
      />
      {children}
    </Page>
  );
}

function NoPlan({ unknown }: { unknown: boolean }) {
  return (
    <Shell>
      <EmptyState
        icon={PackageSearch}
        headingLevel={2}
        title={unknown ? "We couldn't find that plan" : "Choose a plan first"}
        action={
          <Button asChild>
            <Link to="/subscribe">See the plans</Link>
          </Button>
        }
      >
        {unknown
          ? "The link you followed names a plan this site doesn't offer. Pick one of the plans to continue."
          : "Checkout needs a plan to pay for. Pick one of the plans to continue."}
      </EmptyState>
    </Shell>
  );
}

/**
 * /checkout (accounts-billing-admin §2.2): loads the plan, the payment methods and the countries,
 * then the form. A missing or unknown plan and a site without online payments say so instead.
 */
export function CheckoutPage({ search }: { search: CheckoutSearch }) {
  const me = useMe();
  const plans = useQuery(plansQuery);
  const options = useQuery(checkoutOptionsQuery);
  const countries = useQuery(countriesQuery);

  if (!search.planId) return <NoPlan unknown={false} />;
  const failed = [plans, options, countries].find((q) => q.isError && !q.data);
  if (failed) {
    return (
      <Shell>
        <LoadErrorBanner
          title="Checkout couldn't load"
          error={failed.error}
          onRetry={() => void failed.refetch()}
        />
      </Shell>
    );
  }
  if (!plans.data || !options.data || !countries.data || !me) return <PageSpinner label="Loading checkout" />;

  const plan = plans.data.plans.find((p) => p.plan_id === search.planId);
  if (!plan) return <NoPlan unknown />;
  const methods = usableMethods(options.data);
  if (methods.length === 0) {
    return (
      <Shell plan={plan}>
        <EmptyState icon={Store} headingLevel={2} title="Online payments aren't available">
          This site does not take payments online yet. Contact the administrators.
        </EmptyState>
      </Shell>
    );
  }
  return (
    <Shell plan={plan}>
      <CheckoutForm
        key={`${me.id}:${plan.plan_id}`}
        me={me}
        plan={plan}
        search={search}
        options={options.data}
        methods={methods}
        countries={countries.data}
      />
    </Shell>
  );
}
