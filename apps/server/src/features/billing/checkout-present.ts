import type { CheckoutCalculation, CheckoutOrder, OrderResponse } from "@hearth/contract";
import { roleTitle } from "@hearth/contract";
import type { Db } from "../../db/client.ts";
import { latestPaidOrder } from "./order-queries.ts";
import { decimal, type PlanSpec } from "./plans.ts";
import { latestCardSubscription } from "./queries.ts";
import type { OrderRow, SubscriptionRow } from "./schema.ts";

export const toCardClient = ({
  publishableKey,
  scriptUrl,
}: {
  publishableKey: string;
  scriptUrl: string;
}) => ({
  publishable_key: publishableKey,
  script_url: scriptUrl,
});

export const lineName = (plan: PlanSpec) =>
  `${roleTitle[plan.role]} (${plan.period === "annual" ? "Yearly" : "Monthly"})`;

/**
 * Details from the member's last paid order, so a returning subscriber need not type them again,
 * and the card their last card subscription used (an ended one too: checkout can charge it again).
 */
export async function onFileOf(
  db: Db,
  userId: string,
  cardProvider: SubscriptionRow["provider"] | null,
): Promise<CheckoutCalculation["on_file"]> {
  const last = await latestPaidOrder(db, userId);
  if (!last) return null;
  const details = last.billingDetails as Record<string, string | null>;
  const carded = cardProvider ? await latestCardSubscription(db, userId, cardProvider) : null;
  return {
    first_name: details.first_name ?? "",
    last_name: details.last_name ?? "",
    email: details.email ?? "",
    country: details.country ?? "",
    state: details.state ?? null,
    postal_code: details.postal_code ?? "",
    order_id: last.id,
    credit_card: carded?.cardLast4
      ? { last_4: carded.cardLast4, type: carded.cardBrand ?? "card", exp: carded.cardExp ?? "" }
      : null,
  };
}

export function toCheckoutOrder(order: OrderRow, plan: PlanSpec, instructions: string | null): CheckoutOrder {
  return {
    order_id: order.id,
    status: order.status,
    plan_id: order.planId,
    plan_title: lineName(plan),
    amount: decimal(order.total),
    currency: order.currency,
    created_at: order.createdAt.toISOString(),
    subscription_id: order.subscriptionId,
    transaction_id: order.providerPaymentId,
    provider: order.provider,
    error_message: order.errorMessage,
    instructions: order.provider === "manual" ? instructions : null,
  };
}

export function toOrderResponse(order: OrderRow): OrderResponse {
  return {
    resp_msg:
      order.status === "approved"
        ? "Approved"
        : order.status === "requires_action"
          ? "Requires action"
          : order.status === "failed"
            ? "Declined"
            : "Pending",
    order_id: order.id,
    status: order.status,
    subscription_id: order.subscriptionId,
    transaction_id: order.providerPaymentId,
    iframe_3ds_url: null,
    error_message: order.errorMessage,
  };
}
