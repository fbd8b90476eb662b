import { useQuery } from "@tanstack/react-query";
import { Tabs } from "radix-ui";
import { Coupons } from "../../features/admin-billing/coupons.tsx";
import { GrantForm } from "../../features/admin-billing/grant-form.tsx";
import { PendingOrders } from "../../features/admin-billing/pending-orders.tsx";
import { LoadErrorBanner } from "../../features/shell/load-error-banner.tsx";
import { plansQuery } from "../../features/subscribe/api.ts";
import { Page, PageHeader } from "../../ui/page.tsx";
import { PageSpinner } from "../../ui/spinner.tsx";

const tab =
  "rounded-md px-3 py-1.5 text-sm font-medium text-muted transition hover:text-fg " +
  "data-[state=active]:bg-surface data-[state=active]:text-fg data-[state=active]:shadow-sm";

/** Operator page (docs/billing.md): manual payments waiting, coupon codes, and granting months. */
export default function AdminBillingScreen() {
  const plans = useQuery(plansQuery);
  return (
    <Page>
      <PageHeader
        title="Billing"
        description="Payments made by arrangement, coupon codes, and months granted by hand."
      />
      {plans.isPending ? (
        <PageSpinner label="Loading plans" />
      ) : !plans.data ? (
        <LoadErrorBanner
          title="Couldn't load the plans"
          error={plans.error}
          onRetry={() => void plans.refetch()}
        />
      ) : (
        <Tabs.Root defaultValue="pending" className="flex flex-col gap-5">
          <Tabs.List
            aria-label="Billing"
            className="inline-flex w-fit max-w-full flex-wrap gap-1 rounded-lg bg-surface-2 p-1"
          >
            <Tabs.Trigger value="pending" className={tab}>
              Pending orders
            </Tabs.Trigger>
            <Tabs.Trigger value="coupons" className={tab}>
              Coupons
            </Tabs.Trigger>
            <Tabs.Trigger value="grant" className={tab}>
              Grant months
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="pending">
            <PendingOrders />
          </Tabs.Content>
          <Tabs.Content value="coupons">
            <Coupons plans={plans.data.plans} />
          </Tabs.Content>
          <Tabs.Content value="grant">
            <GrantForm plans={plans.data.plans} defaultPlanId={plans.data.default_plan_id} />
          </Tabs.Content>
        </Tabs.Root>
      )}
    </Page>
  );
}
