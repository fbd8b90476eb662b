import type { Subscription } from "@hearth/contract";
import { roleTitle } from "@hearth/contract";
import { decimal, type PlanCatalog, type PlanSpec } from "./plans.ts";
import type { SubscriptionRow } from "./schema.ts";

function product(plan: PlanSpec) {
  return {
    plan_id: plan.planId,
    name: roleTitle[plan.role],
    role: plan.role,
    price: decimal(plan.amount),
    currency: plan.currency,
  };
}

/** §3 Subscription for the portal. Yearly subscribers are offered yearly plans only (§2.2). */
export function toSubscription(
  row: SubscriptionRow,
  orderId: string | null,
  plans: PlanCatalog,
): Subscription {
  const current = plans.find(row.planId);
  const next = row.nextPlanId ? plans.find(row.nextPlanId) : undefined;
  const offered = plans.plans.filter((p) => row.period !== "annual" || p.period === "annual");
  return {
    order_id: orderId,
    subscription_id: row.id,
    subscription_status: row.status,
    provider: row.provider,
    recur_at: row.recurAt?.toISOString() ?? null,
    frequency: row.period === "annual" ? "Yearly Subscription" : "Monthly Subscription",
    is_card_deleted: row.cardDeleted,
    credit_card: row.cardLast4 ? { type: row.cardBrand ?? "card", last_4: row.cardLast4 } : null,
    current_product: current
      ? product(current)
      : // A plan the operator has since removed: shown as it was bought.
        {
          plan_id: row.planId,
          name: row.planId,
          role: "basic",
          price: decimal(row.amount),
          currency: row.currency,
        },
    next_product: next ? product(next) : null,
    // The manual provider charges nothing now: every change waits for the next cycle.
    available_plans: offered.map((p) => ({ ...product(p), billing_frequency: p.period, upgrade_price: 0 })),
  };
}
